import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Turn } from './fixtures/scriptedModel';
import { assertCliBuilt, cliSetUp, closeCliModels, runCli, startCli } from './support/cli';
import { removeTempDirs, tempDir } from './support/tempDirs';
import { allToolOutputs } from './support/toolResults';

// `tether run` and `tether sessions` as a script would use them: the built CLI in a child process,
// the scripted model over real HTTP, a real SQLite file.

beforeAll(() => assertCliBuilt());
afterEach(async () => {
  await closeCliModels();
  removeTempDirs();
});

const setUp = (turns: Turn[]) => cliSetUp(turns);

/**
 * Runs one flooding command through the built CLI to its end (`--unleashed`), and checks that the
 * process's peak memory stayed under 400 MB (printed with TETHER_PRINT_RSS=1).
 */
async function floodThroughTheCli(command: string, timeoutMs: number) {
  const { env, flags, server } = await setUp([
    { toolCalls: [{ name: 'run_command', arguments: { command, timeout_ms: timeoutMs } }] },
    { text: 'That was a lot.' },
  ]);
  const run = startCli(['run', 'flood', '--unleashed', '--json', ...flags], env);
  const peak = watchPeakRss(run.child.pid!);
  expect(await run.exited).toBe(0);
  const peakMb = peak();
  if (process.env.TETHER_PRINT_RSS) console.log(`peak RSS ${peakMb.toFixed(0)} MB`);
  expect(peakMb).toBeLessThan(400);
  return { server, finished: run.events.find((stored) => stored.event.type === 'tool.finished')?.event };
}

/** Samples a process's peak resident memory (VmHWM) until it exits; returns the last value seen, in MB. */
function watchPeakRss(pid: number): () => number {
  let peakMb = 0;
  const timer = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      peakMb = Math.max(peakMb, Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
    } catch {
      clearInterval(timer);
    }
  }, 100);
  return () => {
    clearInterval(timer);
    return peakMb;
  };
}

describe('tether run', () => {
  it('prints one JSON event per line and exits 0 when the model answers', async () => {
    const { env, flags } = await setUp([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'src/price.js' } }] },
      { text: 'All read.' },
    ]);
    const result = await runCli(['run', 'read the code', '--json', ...flags], env);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.length).toBe(result.events.length);
    expect(result.events.map((stored) => stored.event.type)).toEqual([
      'session.started',
      'user.messaged',
      'checkpoint.created',
      'model.requested',
      'model.responded',
      'tool.started',
      'tool.finished',
      'model.requested',
      'model.responded',
      'session.finished',
    ]);
  });

  it('prints the answer on stdout and progress on stderr without --json', async () => {
    const { env, flags } = await setUp([{ text: 'The answer is 42.' }]);
    const result = await runCli(['run', 'what is it?', ...flags], env);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('The answer is 42.');
    expect(result.stderr).toMatch(/session started/);
  });

  it('denies an edit, a command and a write headless, and exits 0 when the model then finishes', async () => {
    const { env, flags, repo, server } = await setUp([
      {
        toolCalls: [
          { name: 'edit_file', arguments: { path: 'src/price.js', old_string: 'percent;', new_string: 'percent / 100;' } },
          { name: 'run_command', arguments: { command: 'touch ran' } },
          { name: 'write_file', arguments: { path: 'new.txt', content: 'x' } },
        ],
      },
      { text: 'I was not allowed.' },
    ]);
    const result = await runCli(['run', 'fix it', '--json', ...flags], env);
    expect(result.code).toBe(0);
    expect(existsSync(path.join(repo, 'ran'))).toBe(false);
    expect(existsSync(path.join(repo, 'new.txt'))).toBe(false);
    const outputs = allToolOutputs(server.requests[1]!);
    expect(outputs).toHaveLength(3);
    for (const output of outputs) expect(output).toMatch(/denies every action that needs approval unless it was started with --unleashed/);
  });

  it('runs them with --unleashed, for that run only', async () => {
    const { env, flags, repo } = await setUp([
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch ran' } }] },
      { text: 'Done.' },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch ran-again' } }] },
      { text: 'Not allowed this time.' },
    ]);
    const first = await runCli(['run', 'touch it', '--unleashed', '--json', ...flags], env);
    expect(first.code).toBe(0);
    expect(existsSync(path.join(repo, 'ran'))).toBe(true);
    const sessionId = first.events[0]!.sessionId;
    const second = await runCli(['run', '--session', sessionId, 'touch it again', '--json', '--base-url', flags[3]!], env);
    expect(second.code).toBe(0);
    expect(existsSync(path.join(repo, 'ran-again'))).toBe(false);
  });

  it('exits 2 when maxSteps stops it, and says why on stderr', async () => {
    const loop: Turn = { toolCalls: [{ name: 'list_files', arguments: {} }] };
    const { env, flags } = await setUp([loop, loop, loop]);
    const result = await runCli(['run', 'loop', '--max-steps', '2', ...flags], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/maxSteps is 2/);
  });

  it('exits 3 on a provider error, with the reason on stderr', async () => {
    const { env, flags } = await setUp([{ error: { status: 401 } }]);
    const result = await runCli(['run', 'x', ...flags], env);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/401/);
    expect(result.stderr).toMatch(/key/i);
  });

  it('exits 130 on Ctrl-C, kills the running command, and keeps the session complete', async () => {
    const { env, flags, repo } = await setUp([{ toolCalls: [{ name: 'run_command', arguments: { command: 'sleep 30; touch late' } }] }]);
    const run = startCli(['run', 'wait', '--unleashed', '--json', ...flags], env);
    await run.waitForEvent((stored) => stored.event.type === 'tool.started');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.events.at(-1)?.event).toMatchObject({ type: 'session.finished', status: 'aborted' });
    expect(run.stderr()).toMatch(/Stopped by the person/);
    expect(existsSync(path.join(repo, 'late'))).toBe(false);
  });

  it('a flood of output is bad input, not a crash: memory stays bounded, Ctrl-C exits 130 with the call finished as aborted', async () => {
    const { env, flags } = await setUp([
      { toolCalls: [{ name: 'run_command', arguments: { command: "cat /dev/zero | tr '\\0' a", timeout_ms: 120_000 } }] },
    ]);
    const run = startCli(['run', 'flood', '--unleashed', '--json', ...flags], env);
    await run.waitForEvent((stored) => stored.event.type === 'tool.started');
    // Let it pour for a while (hundreds of megabytes on this machine), then read the peak memory.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const status = readFileSync(`/proc/${run.child.pid}/status`, 'utf8');
    const peakMb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(peakMb).toBeLessThan(400);
    const finished = run.events.find((stored) => stored.event.type === 'tool.finished')?.event;
    expect(finished).toMatchObject({ type: 'tool.finished', outcome: 'aborted' });
    const output = finished?.type === 'tool.finished' ? finished.output : '';
    expect(output.length).toBeLessThan(2_100_000);
    expect(output).toMatch(/\[… \d+ characters of output cut …\]/);
    expect(run.stderr()).not.toMatch(/Invalid string length/);
  }, 60_000);

  it('300 MB of output keeps Tether under 400 MB, and the model is told the true size of what was cut', async () => {
    const { finished, server } = await floodThroughTheCli("head -c 300000000 /dev/zero | tr '\\0' a; echo; echo FLOOD-END", 120_000);
    expect(finished).toMatchObject({ type: 'tool.finished', outcome: 'ok' });
    const [told] = allToolOutputs(server.requests[1]!);
    expect(told).toMatch(/FLOOD-END/);
    // What the model reads names a cut within a few megabytes of the 300 MB that poured out.
    const cut = Number(/([\d,]+) characters (?:of output )?cut/.exec(told ?? '')?.[1]?.replace(/,/g, ''));
    expect(cut).toBeGreaterThan(295_000_000);
    expect(cut).toBeLessThan(300_100_000);
  }, 120_000);

  it('an endless flood runs to its timeout with memory bounded, and the call ends with the output capped', async () => {
    const { finished } = await floodThroughTheCli("cat /dev/zero | tr '\\0' a", 6_000);
    expect(finished?.type === 'tool.finished' && finished.output).toMatch(/timed out|timeout/i);
    expect(finished?.type === 'tool.finished' ? finished.output.length : Infinity).toBeLessThan(2_100_000);
  }, 60_000);

  it('after kill -9 mid-command, --session resumes without running the command again and tells the model its outcome is unknown', async () => {
    const { env, flags, repo, server } = await setUp([
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo ran >> counter.txt; sleep 30' } }] },
      { text: 'I will check the counter before doing anything else.' },
    ]);
    const run = startCli(['run', 'count', '--unleashed', '--json', ...flags], env);
    const started = await run.waitForEvent((stored) => stored.event.type === 'tool.started');
    const counter = path.join(repo, 'counter.txt');
    for (let i = 0; i < 100 && !existsSync(counter); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    run.child.kill('SIGKILL');
    await run.exited;

    const resumed = await runCli(['run', '--session', started.sessionId, '--unleashed', '--json', '--base-url', server.baseUrl], env);
    expect(resumed.code).toBe(0);
    expect(readFileSync(counter, 'utf8')).toBe('ran\n');
    expect(allToolOutputs(server.requests[1]!)[0]).toMatch(/^Outcome unknown/);
    expect(resumed.events.map((stored) => stored.event.type).slice(0, 3)).toEqual([
      'session.resumed',
      'checkpoint.created',
      'tool.finished',
    ]);

    const shown = await runCli(['sessions', 'show', started.sessionId], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/Outcome unknown: run_command \[unknown/);
    expect(shown.stdout).toMatch(/session resumed/);
  });
});

describe('tether sessions', () => {
  it('lists sessions and prints one readably', async () => {
    const { env, flags } = await setUp([{ text: 'Hello there.' }]);
    const run = await runCli(['run', 'say hello', '--json', ...flags], env);
    const sessionId = run.events[0]!.sessionId;
    const list = await runCli(['sessions'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`${sessionId}\\s+done.*scripted-model\\s+.*say hello`));
    const show = await runCli(['sessions', 'show', sessionId], env);
    expect(show.stdout).toMatch(/› say hello/);
    expect(show.stdout).toMatch(/‹ Hello there\./);
    expect(show.stdout).toMatch(/■ done/);
    const missing = await runCli(['sessions', 'show', 'nope'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No session nope/);
  });

  it('says so when there are none', async () => {
    const result = await runCli(['sessions'], { TETHER_HOME: tempDir() });
    expect(result.stdout).toMatch(/No sessions yet/);
  });
});

describe('a database it cannot use', () => {
  it('refuses one written by a newer Tether and leaves it untouched', async () => {
    const home = tempDir('tether-home-');
    const file = path.join(home, 'tether.db');
    const db = new Database(file);
    db.pragma('user_version = 999');
    db.close();
    const before = createHash('sha256').update(readFileSync(file)).digest('hex');
    const result = await runCli(['sessions'], { TETHER_HOME: home });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/newer Tether/);
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(before);
  });

  it('waits for a locked database, then fails with a clear message and no stack', async () => {
    const { env, flags } = await setUp([{ text: 'unused' }]);
    await runCli(['sessions'], env); // creates and migrates the database
    const holder = new Database(path.join(env.TETHER_HOME, 'tether.db'));
    holder.exec('BEGIN IMMEDIATE');
    try {
      const result = await runCli(['run', 'x', ...flags], env);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/locked/);
      expect(result.stderr).not.toMatch(/\bat .*\.js:\d+/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  }, 20_000);

  it('explains a data folder that cannot be created', async () => {
    const blocker = path.join(tempDir(), 'a-file');
    writeFileSync(blocker, 'not a folder');
    const result = await runCli(['sessions'], { TETHER_HOME: path.join(blocker, 'data') });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(blocker);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('an unexpected error', () => {
  // The build is minified (electron.vite.config.ts): a stack is only of use if it names the source.
  it('is one line; under TETHER_DEBUG its stack names the source files and lines, through the source maps of the build', async () => {
    const missing = path.join(tempDir(), 'gone');
    const env = { TETHER_HOME: tempDir() };
    const plain = await runCli(['run', 'x', '--cwd', missing], env);
    expect(plain.code).toBe(1);
    expect(plain.stderr.trim().split('\n')).toEqual([`tether: The workspace folder ${missing} does not exist.`]);

    const debug = await runCli(['run', 'x', '--cwd', missing], { ...env, TETHER_DEBUG: '1' });
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/at canonicalWorkspace \(.*src\/main\/core\.ts:\d+:\d+\)/);
    expect(debug.stderr).not.toMatch(/out\/main\//);
  });
});
