import type { RuleAction } from '../../shared/permissions';
import { ruleFor } from '../../shared/toolCatalog';
import { AUTORUN_FILES } from '../workspace/autorunFiles';
import { HOME_CREDENTIAL_STORES } from '../workspace/secretPlaces';

/** A built-in rule, with the reason a person is shown when it decides. */
export interface DefaultRule {
  pattern: string;
  action: RuleAction;
  why: string;
  /** Still asks in unleashed mode (Claude Code's bypass mode keeps asking for these too). */
  holdsWhenUnleashed?: boolean;
}

/**
 * The built-in rules (source 'default'). Few on purpose: each one is something nearly everybody
 * wants, and since deny beats ask beats allow, a default that is too broad could never be undone.
 */
export const DEFAULT_RULES: readonly DefaultRule[] = [
  // The credential stores the sandbox's read fence keeps from commands (one table, secretPlaces.ts).
  ...HOME_CREDENTIAL_STORES.flatMap((store): DefaultRule[] =>
    [ruleFor('read', `~/${store}`), ruleFor('read', `~/${store}/**`)].map((pattern) => ({
      pattern,
      action: 'deny',
      why: `credentials (~/${store}) never go to a model.`,
    })),
  ),
  {
    // .env files hold secrets; reading one sends them to the model provider. An ask, not a deny, so a
    // person can still say yes; the sample files projects commit are left out, or nobody could silence it.
    pattern: ruleFor('read', '.env'),
    action: 'ask',
    why: '.env files usually hold secrets, and reading one sends them to the model provider.',
  },
  {
    pattern: ruleFor('read', '.env.!(example|sample|template|dist|defaults)'),
    action: 'ask',
    why: '.env files usually hold secrets, and reading one sends them to the model provider.',
  },
  {
    pattern: ruleFor('write', '.git'),
    action: 'ask',
    why: "changing Git's own files (hooks, config) can run code later or rewrite history.",
    holdsWhenUnleashed: true,
  },
  {
    pattern: ruleFor('write', '.tether'),
    action: 'ask',
    why: "the .tether folder holds this project's permission settings; the agent must not grant itself more.",
    holdsWhenUnleashed: true,
  },
  // What the person's own tools run by themselves later, outside any sandbox (one table, autorunFiles.ts).
  ...AUTORUN_FILES.map((file): DefaultRule => ({
    pattern: ruleFor('write', file.pattern),
    action: 'ask',
    why: `${file.runs}, outside any sandbox`,
    holdsWhenUnleashed: true,
  })),
];
