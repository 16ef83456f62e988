import { describe, expect, it } from 'vitest';
import { hooksIn } from './hookSettings';
import { hookToolName, matcherMatches } from './toolNames';

const parse = (hooks: unknown) => hooksIn({ hooks }, '/settings.json', 'user');

describe('hooks in a settings file', () => {
  it("reads Claude Code's shape, with the default timeout of 60 s", () => {
    expect(
      parse({
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh', timeout: 5 }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'notify.sh' }] }],
      }),
    ).toEqual([
      { event: 'PreToolUse', matcher: 'Bash', command: 'guard.sh', timeoutSeconds: 5, source: 'user' },
      { event: 'Stop', command: 'notify.sh', timeoutSeconds: 60, source: 'user' },
    ]);
  });

  it("accepts Claude Code's events Tether does not fire, and keys it does not read, so existing files load", () => {
    expect(
      parse({
        Notification: [{ hooks: [{ type: 'command', command: 'ping.sh' }] }],
        PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'fmt.sh', statusMessage: 'formatting' }] }],
      }),
    ).toEqual([{ event: 'PostToolUse', matcher: '*', command: 'fmt.sh', timeoutSeconds: 60, source: 'user' }]);
    expect(hooksIn({ permissions: {} }, '/s.json', 'project')).toEqual([]);
    expect(hooksIn(undefined, '/s.json', 'project')).toEqual([]);
  });

  it.each([
    ['an unknown event (a typo)', { PreTooluse: [] }, /unknown event "PreTooluse"/],
    [
      'a matcher that is no regular expression',
      { PreToolUse: [{ matcher: 'Bash(', hooks: [] }] },
      /matcher is not a valid regular expression/,
    ],
    ['a hook of another type', { PreToolUse: [{ hooks: [{ type: 'prompt', prompt: 'x' }] }] }, /must be "command"/],
    ['an empty command', { PreToolUse: [{ hooks: [{ type: 'command', command: ' ' }] }] }, /non-empty command/],
    ['a negative timeout', { PreToolUse: [{ hooks: [{ type: 'command', command: 'x', timeout: -1 }] }] }, /positive number of seconds/],
    ['hooks that are not a list', { PreToolUse: { hooks: [] } }, /hooks\.PreToolUse/],
    ['a group with no hooks list', { PreToolUse: [{ matcher: 'Bash' }] }, /hooks\.PreToolUse\.0\.hooks/],
  ])('refuses %s, naming the file', (_what, hooks, problem) => {
    expect(() => parse(hooks)).toThrow(problem);
    expect(() => parse(hooks)).toThrow('/settings.json');
  });
});

describe('matchers', () => {
  it("match Claude Code's names and Tether's, whole names only", () => {
    expect(matcherMatches('Bash', 'run_command')).toBe(true);
    expect(matcherMatches('run_command', 'run_command')).toBe(true);
    expect(matcherMatches('Edit|Write', 'write_file')).toBe(true);
    expect(matcherMatches('Edit|Write', 'edit_file')).toBe(true);
    expect(matcherMatches('Edit', 'read_file')).toBe(false);
    expect(matcherMatches('Bas', 'run_command')).toBe(false);
    expect(matcherMatches('Glob', 'list_files')).toBe(true);
    expect(matcherMatches('WebFetch', 'fetch_url')).toBe(true);
    expect(matcherMatches('mcp__.*', 'mcp__memory__read')).toBe(true);
    for (const all of [undefined, '', '*']) expect(matcherMatches(all, 'update_plan')).toBe(true);
  });

  it("tell a hook Claude Code's name where there is one", () => {
    expect(
      ['run_command', 'edit_file', 'write_file', 'read_file', 'search_code', 'list_files', 'fetch_url', 'update_plan'].map(hookToolName),
    ).toEqual(['Bash', 'Edit', 'Write', 'Read', 'Grep', 'Glob', 'WebFetch', 'update_plan']);
    expect(hookToolName('constructor')).toBe('constructor');
  });
});
