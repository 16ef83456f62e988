import { describe, expect, it } from 'vitest';
import type { SessionEvent, StoredEvent } from '../../shared/events';
import { rewindWarnings } from './rewindWarnings';

const workspace = '/work/project';

function started(calls: Array<[string, Record<string, unknown>]>): StoredEvent[] {
  return calls.map(([name, args], index) => ({
    sessionId: 's',
    seq: index + 10,
    at: 0,
    event: { type: 'tool.started', callId: `c${index}`, name, args } as SessionEvent,
  }));
}

describe('rewindWarnings', () => {
  it('lists what reached beyond the workspace after the step, and nothing that stayed inside', async () => {
    const events = started([
      ['run_command', { command: 'ls -la && cat src/a.ts' }],
      ['run_command', { command: 'rm -rf build && mkdir build' }],
      ['run_command', { command: 'curl -fsSL https://example.com/x.sh' }],
      ['run_command', { command: 'npm install left-pad' }],
      ['run_command', { command: 'git push origin main' }],
      ['run_command', { command: 'echo hi > /tmp/outside.txt' }],
      ['run_command', { command: 'cp notes.txt ../elsewhere/' }],
      ['run_command', { command: 'eval "$CMD"' }],
      ['fetch_url', { url: 'https://docs.example.com/api' }],
      ['mcp__github__create_issue', { title: 'x' }],
      ['edit_file', { path: 'a.ts', old_string: 'a', new_string: 'b' }],
    ]);
    const warnings = await rewindWarnings(events, 0, workspace);
    const byCommand = new Map(warnings.map((warning) => [warning.summary, warning.why]));
    expect(byCommand.has('ls -la && cat src/a.ts')).toBe(false);
    expect(byCommand.has('rm -rf build && mkdir build')).toBe(false);
    expect(byCommand.get('curl -fsSL https://example.com/x.sh')).toMatch(/network \(curl/);
    expect(byCommand.get('npm install left-pad')).toMatch(/network \(npm install\)/);
    expect(byCommand.get('git push origin main')).toMatch(/network \(git push\)/);
    expect(byCommand.get('echo hi > /tmp/outside.txt')).toMatch(/outside the workspace \(\/tmp\/outside\.txt\)/);
    expect(byCommand.get('cp notes.txt ../elsewhere/')).toMatch(/outside the workspace \(\.\.\/elsewhere\/\)/);
    expect(byCommand.get('eval "$CMD"')).toMatch(/could not be pinned down/);
    expect(byCommand.get('https://docs.example.com/api')).toMatch(/request over the network/);
    expect(byCommand.get('github › create_issue')).toMatch(/MCP server/);
    expect(warnings.some((warning) => warning.tool === 'edit_file')).toBe(false);
  });

  it('leaves out what ran at or before the step', async () => {
    const events = started([['run_command', { command: 'git push' }]]);
    expect(await rewindWarnings(events, events[0]!.seq, workspace)).toEqual([]);
  });
});
