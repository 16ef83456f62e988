import { z } from 'zod';

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
});
export type Decision = z.infer<typeof Decision>;
