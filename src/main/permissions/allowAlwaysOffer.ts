import { offerAllowAlways, type AllowAlwaysSubject } from './allowAlways';
import type { ItemizedCall } from './callItems';
import type { Decided } from './decisionLadder';
import type { AllowAlwaysOffer } from './policyVerdict';

/**
 * The Allow always offer for a call that asks: what `offerAllowAlways` makes of it, kept only if it
 * does what it says. `grants(rule)` says whether this very call would be allowed with the rule as a
 * grant; a prefix that would not falls back to the exact command, and an offer that still would not
 * is refused. The step that asked may have refused an offer already (an ask rule, the taint gate).
 */
export function allowAlwaysOffer(call: ItemizedCall, decided: Decided, grants: (rule: string) => boolean): AllowAlwaysOffer {
  if (decided.noOffer) return { refused: decided.noOffer };
  const subject = allowAlwaysSubject(call);
  let made = offerAllowAlways(subject);
  if ('rule' in made && !grants(made.rule) && subject.kind === 'command') {
    made = offerAllowAlways({ ...subject, exactOnly: 'the prefix would not cover all of it' });
  }
  if ('rule' in made && !grants(made.rule)) {
    return { refused: `no single rule would allow all of it (${made.rule} would not); allow it once` };
  }
  return made;
}

function allowAlwaysSubject(call: ItemizedCall): AllowAlwaysSubject {
  if (call.command) {
    const outside = call.items.some((i) => i.kind === 'path' && (!i.inside || i.unknown));
    return {
      kind: 'command',
      command: call.command.text,
      analysis: call.command.analysis,
      ...(outside ? { exactOnly: 'it reaches outside the workspace' } : {}),
    };
  }
  const paths = call.items.flatMap((i) => (i.kind === 'path' ? [i] : []));
  if (paths.length > 0 && call.subject.kind === 'paths') {
    return {
      kind: 'paths',
      access: call.subject.access,
      paths: paths.map((p) => ({ absolute: p.candidates[0] as string, ...(p.inside ? { relative: p.shown } : {}) })),
      tool: call.toolName,
    };
  }
  const host = call.items.find((i) => i.kind === 'host');
  if (host && host.kind === 'host') return { kind: 'url', host: host.host };
  return { kind: 'tool', name: call.toolName };
}
