import { z } from 'zod';
import { Json } from './json';

/** How much harm a tool can do; the default policy is keyed on it. */
export const Risk = z.enum(['none', 'read', 'edit', 'exec', 'egress']);
export type Risk = z.infer<typeof Risk>;

/** What the policy says about one tool call. */
export const PolicyAction = z.enum(['allow', 'ask', 'deny']);
export type PolicyAction = z.infer<typeof PolicyAction>;

/** How long an "allow" lasts. */
export const Scope = z.enum(['once', 'session', 'project', 'everywhere']);
export type Scope = z.infer<typeof Scope>;

/** Who answered a permission request. */
export const Answerer = z.enum(['person', 'headless', 'policy']);
export type Answerer = z.infer<typeof Answerer>;

/** The answer to a permission request. */
export const Decision = z.object({
  action: z.enum(['allow', 'deny']),
  scope: Scope,
  /** What the person told the model, for a denial (or a changed approval). */
  message: z.string().optional(),
  by: Answerer,
  /** The rule an "Allow always" created, exactly as it was shown (and perhaps edited). */
  rule: z.string().optional(),
  /** For an allow: the arguments as the person changed them before allowing; the call runs with these, once. */
  editedArgs: Json.optional(),
});
export type Decision = z.infer<typeof Decision>;

/** What a rule does when it matches. */
export const RuleAction = z.enum(['allow', 'ask', 'deny']);
export type RuleAction = z.infer<typeof RuleAction>;

/**
 * Where a rule came from; project rules may only add ask and deny until the folder is trusted.
 * `managed`: the machine's managed policy, which no other source can loosen.
 */
export const RuleSource = z.enum(['default', 'managed', 'user', 'project', 'session', 'cli']);
export type RuleSource = z.infer<typeof RuleSource>;

/**
 * A permission rule as a person writes it: `tool(specifier)` or a bare tool name, e.g.
 * `run_command(npm test *)`, `edit_file(src/**)`, `fetch_url(domain:docs.example.com)`, `mcp__github__*`.
 */
export const PermissionRule = z.object({
  pattern: z.string().min(1),
  action: RuleAction,
  source: RuleSource,
  /** The stored rule's id, for remembered rules (revocable). */
  id: z.string().optional(),
});
export type PermissionRule = z.infer<typeof PermissionRule>;

/** How much runs without asking. Deny rules and the path guard hold in every mode. */
export const PermissionMode = z.enum(['ask', 'auto-edit', 'auto', 'read-only', 'unleashed']);
export type PermissionMode = z.infer<typeof PermissionMode>;

/** What happens to actions that can send data out once the session has read outside content. */
export const OutsideContentSetting = z.enum(['ask', 'block', 'off']);
export type OutsideContentSetting = z.infer<typeof OutsideContentSetting>;
