import { describe, expect, it } from 'vitest';
import os from 'node:os';
import { runHookCommand } from './runHookCommand';

const base = { stdin: '{}', cwd: os.tmpdir(), env: { PATH: '/usr/bin:/bin' }, timeoutMs: 60_000 };

describe('stopping a hook with its session', () => {
  it('does not start a hook when the session was stopped before it began (the abort came while its sandbox was readied)', async () => {
    const stop = new AbortController();
    stop.abort();
    const started = performance.now();
    const result = await runHookCommand({ ...base, command: 'sleep 30', signal: stop.signal });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result).toMatchObject({ stopped: true, exitCode: null, timedOut: false });
  });

  it('kills a hook and what it started when the session stops while it runs', async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    const started = performance.now();
    const result = await runHookCommand({ ...base, command: 'sleep 30 & sleep 31; wait', signal: stop.signal });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ stopped: true, exitCode: null });
  });

  it('reports a hook that outlives its timeout as timed out, not stopped', async () => {
    const result = await runHookCommand({ ...base, command: 'sleep 30', timeoutMs: 200 });
    expect(result).toMatchObject({ timedOut: true, stopped: false, exitCode: null });
  });
});
