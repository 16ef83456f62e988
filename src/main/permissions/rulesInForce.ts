import type { PermissionRule } from '../../shared/permissions';
import { DEFAULT_RULES } from './defaultRules';
import { compileRule, type CompiledRule } from './ruleMatchItem';

/**
 * The rules an engine holds, read once and grouped by action: the built-in defaults first (unless
 * left out), then the ones it was given, then the ones added while it runs (grants). A project's
 * allow rules stay listed but match only while the person trusts the folder.
 */
export class RulesInForce {
  private compiled: CompiledRule[];
  private live!: Record<'deny' | 'ask' | 'allow', CompiledRule[]>;

  constructor(
    private readonly places: { workspaceRoot: string; home: string },
    given: readonly PermissionRule[],
    builtinDefaults: boolean,
    private projectTrusted: boolean,
  ) {
    this.compiled = [
      ...(builtinDefaults
        ? DEFAULT_RULES.map((d) => compileRule({ pattern: d.pattern, action: d.action, source: 'default' }, places, d))
        : []),
      ...given.map((rule) => compileRule(rule, places)),
    ];
    this.regroup();
  }

  get deny(): readonly CompiledRule[] {
    return this.live.deny;
  }

  get ask(): readonly CompiledRule[] {
    return this.live.ask;
  }

  get allow(): readonly CompiledRule[] {
    return this.live.allow;
  }

  /** Reads a rule for matching without adding it (an Allow always offer, weighed before it is made). */
  compile(rule: PermissionRule): CompiledRule {
    return compileRule(rule, this.places);
  }

  setProjectTrusted(trusted: boolean): void {
    this.projectTrusted = trusted;
    this.regroup();
  }

  /** Throws RuleSyntaxError for a rule that cannot be read. */
  add(rule: PermissionRule): void {
    this.compiled.push(this.compile(rule));
    this.regroup();
  }

  /**
   * Removes the rules with this id, or the ones with this pattern, action and source that came from
   * a settings file (no id: a remembered grant with the same pattern stays); returns how many.
   */
  remove(which: { id: string } | Pick<PermissionRule, 'pattern' | 'action' | 'source'>): number {
    const before = this.compiled.length;
    this.compiled = this.compiled.filter((c) =>
      'id' in which
        ? c.rule.id !== which.id
        : !(
            c.rule.id === undefined &&
            c.rule.pattern === which.pattern &&
            c.rule.action === which.action &&
            c.rule.source === which.source
          ),
    );
    this.regroup();
    return before - this.compiled.length;
  }

  /** Every rule in force, built-in defaults first, in the order they were given. */
  list(): PermissionRule[] {
    return this.compiled.map((c) => ({ ...c.rule }));
  }

  private regroup(): void {
    // Untrusted project allow rules stay listed but never match; that is the whole point of trust.
    const live = this.compiled.filter((r) => !(r.rule.source === 'project' && r.rule.action === 'allow' && !this.projectTrusted));
    this.live = {
      deny: live.filter((r) => r.rule.action === 'deny'),
      ask: live.filter((r) => r.rule.action === 'ask'),
      allow: live.filter((r) => r.rule.action === 'allow'),
    };
  }
}
