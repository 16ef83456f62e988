import { z } from 'zod';
import { readJsonValue } from '../settings/jsonFile';
import { SettingsError } from '../settings/settingsFile';

/**
 * Hooks as Claude Code configures them, read from the same settings files as the permission rules
 * (the person's settings.json, the project's `.tether/settings.json`):
 *   { "hooks": { "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "…", "timeout": 60 }] }] } }
 * so a person's existing hook configuration works unchanged. Events Claude Code has and Tether does
 * not fire (Notification, SessionEnd, …) are accepted and never run; a name neither knows is an error,
 * as is a matcher that is not a regular expression: a typo must not silently turn a guard off.
 */

/** The events Tether fires. */
export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Claude Code's other events: a configuration naming them is valid, they just never fire here. */
const CLAUDE_CODE_ONLY_EVENTS = [
  'Notification',
  'SubagentStop',
  'SubagentStart',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
  'PostToolUseFailure',
  'PermissionDenied',
];

/** Claude Code's default: a hook may run for a minute. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

const CommandHook = z.looseObject({
  type: z.literal('command', { error: 'must be "command" (the only kind of hook Tether runs)' }),
  command: z.string().trim().min(1, { error: 'must be a non-empty command' }),
  timeout: z.number().positive({ error: 'must be a positive number of seconds' }).optional(),
});

const MatcherGroup = z.looseObject({
  matcher: z
    .string()
    .refine((pattern) => pattern === '*' || isRegExp(pattern), { error: 'is not a valid regular expression (or "*")' })
    .optional(),
  hooks: z.array(CommandHook),
});

const HooksSection = z.record(z.string(), z.array(MatcherGroup));

/**
 * Where a hook was configured: the machine's managed policy, the person's own settings, or the
 * project's (which run only once it is trusted).
 */
export type HookSource = 'managed' | 'user' | 'project';

export interface ConfiguredHook {
  event: HookEvent;
  /** A regular expression over the tool's name (Claude Code's or Tether's); absent, empty or `*` matches every tool. */
  matcher?: string;
  command: string;
  timeoutSeconds: number;
  source: HookSource;
}

/** The hooks in one settings file; a missing file has none. */
export function readHooks(file: string, source: HookSource): ConfiguredHook[] {
  return hooksIn(
    readJsonValue(file, (problem) => new SettingsError(file, problem)),
    file,
    source,
  );
}

/** The hooks in a settings file's JSON (undefined: there is no file); `file` names it in errors. */
export function hooksIn(json: unknown, file: string, source: HookSource): ConfiguredHook[] {
  if (typeof json !== 'object' || json === null || !('hooks' in json)) return [];
  const parsed = HooksSection.safeParse(json.hooks);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `hooks.${issue.path.map(String).join('.')} ${issue.message}`);
    throw new SettingsError(file, `has hooks that cannot be used: ${problems.join('; ')}.`);
  }
  const hooks: ConfiguredHook[] = [];
  for (const [event, groups] of Object.entries(parsed.data)) {
    if (!isHookEvent(event)) {
      if (CLAUDE_CODE_ONLY_EVENTS.includes(event)) continue;
      throw new SettingsError(file, `has hooks for an unknown event ${JSON.stringify(event)}; Tether runs ${HOOK_EVENTS.join(', ')}.`);
    }
    for (const group of groups) {
      for (const hook of group.hooks) {
        hooks.push({
          event,
          ...(group.matcher !== undefined ? { matcher: group.matcher } : {}),
          command: hook.command,
          timeoutSeconds: hook.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS,
          source,
        });
      }
    }
  }
  return hooks;
}

function isHookEvent(name: string): name is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

function isRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}
