import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPtyTerminal } from './pty';
import type { CommandOptions, Terminal } from './terminal';
import { alive } from '../../../test/support/processes';

let dir: string;
const terminals: Terminal[] = [];

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-pty-')));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});
afterAll(() => {
  for (const terminal of terminals) terminal.dispose();
});

function terminal(options?: Parameters<typeof createPtyTerminal>[0]): Terminal {
  const created = createPtyTerminal(options);
  terminals.push(created);
  return created;
}

function run(command: string, options: Partial<CommandOptions> & { terminal?: Terminal } = {}) {
  const { terminal: chosen, ...rest } = options;
  return (chosen ?? terminal()).run({ command, cwd: dir, timeoutMs: 10_000, signal: new AbortController().signal, ...rest });
}

async function waitForFile(file: string, timeoutMs = 5_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '';
    if (text) return text;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${file} was not written within ${timeoutMs} ms`);
}

describe('createPtyTerminal', () => {
  it('returns the output and exit code 0 of a command that succeeds', async () => {
    const result = await run('echo hello; printf "h\\xc3\\xa9llo \\xe2\\x9c\\x93\\n"');
    expect(result).toMatchObject({ output: 'hello\nhéllo ✓\n', exitCode: 0, signal: null, timedOut: false, aborted: false });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reports a non-zero exit, with stderr interleaved in the output', async () => {
    const result = await run('echo before; echo oops >&2; exit 3; echo after');
    expect(result.exitCode).toBe(3);
    expect(result.signal).toBeNull();
    expect(result.output).toBe('before\noops\n');
  });

  it('ends a command that does not exist with the shell status 127', async () => {
    const result = await run('no-such-command-tether --flag');
    expect(result.exitCode).toBe(127);
    expect(result.output).toContain('no-such-command-tether: command not found');
  });

  it('reports a shell syntax error as status 2 without running anything', async () => {
    const result = await run('echo "unclosed');
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/unexpected EOF|syntax error/);
  });

  it('does not show the command itself as $1', async () => {
    const result = await run('echo "[$#][$1]"');
    expect(result.output).toBe('[0][]\n');
  });

  it('closes stdin, so cat and read return at once instead of waiting for input', async () => {
    const cat = await run('cat; echo cat-done', { timeoutMs: 5_000 });
    expect(cat).toMatchObject({ output: 'cat-done\n', exitCode: 0, timedOut: false });
    const read = await run('read x; echo "got:[$x] rc:$?"', { timeoutMs: 5_000 });
    expect(read).toMatchObject({ output: 'got:[] rc:1\n', timedOut: false });
    // A compound command keeps stdin closed in every part, subshells and pipelines included.
    const compound = await run('(read y; echo "sub:$?") && { cat | wc -c; }', { timeoutMs: 5_000 });
    expect(compound.output.replace(/ /g, '')).toBe('sub:1\n0\n');
    expect(cat.durationMs + read.durationMs + compound.durationMs).toBeLessThan(4_000);
  });

  it('gives end-of-file to a command that reads the terminal itself', async () => {
    const result = await run('read -r -p "password: " x </dev/tty; echo "rc:$?"', { timeoutMs: 5_000 });
    expect(result.timedOut).toBe(false);
    expect(result.output).toBe('password: rc:1\n');
  });

  it('sets the non-interactive environment and drops NO_COLOR', async () => {
    const saved = process.env.NO_COLOR;
    process.env.NO_COLOR = '1';
    try {
      const result = await run(
        'echo "$CI|$GIT_TERMINAL_PROMPT|$PAGER|$GIT_PAGER|$GIT_EDITOR|$DEBIAN_FRONTEND|$npm_config_yes|$TERM|${NO_COLOR-unset}|$EXTRA"; [ -t 0 ] && echo stdin-is-tty; [ -t 1 ] && echo stdout-is-tty',
        { env: { EXTRA: 'extra-value' } },
      );
      expect(result.output).toBe('1|0|cat|cat|true|noninteractive|true|xterm-256color|unset|extra-value\nstdout-is-tty\n');
    } finally {
      if (saved === undefined) delete process.env.NO_COLOR;
      else process.env.NO_COLOR = saved;
    }
  });

  it('runs in the given folder', async () => {
    fs.mkdirSync(path.join(dir, 'sub'));
    const result = await run('pwd', { cwd: path.join(dir, 'sub') });
    expect(result.output).toBe(`${path.join(dir, 'sub')}\n`);
  });

  it('refuses a folder that does not exist, saying which', async () => {
    await expect(run('pwd', { cwd: path.join(dir, 'missing') })).rejects.toThrow(/missing: that folder does not exist/);
  });

  it('on timeout kills the whole process group, grandchildren included', async () => {
    const pidFile = path.join(dir, 'grandchild.pid');
    // The inner bash is a grandchild (wrapper -> job -> bash); `; :` keeps it from exec'ing sleep.
    // It ignores SIGHUP, as nohup'd tools do, so the hang-up the kernel sends when the shell dies
    // does not end it: only a signal to the whole group does.
    const result = await run(`echo started; bash -c 'trap "" HUP; echo $$ > "$0"; sleep 100; :' ${pidFile} & wait`, { timeoutMs: 700 });
    const grandchild = Number(await waitForFile(pidFile));
    expect(result).toMatchObject({ timedOut: true, aborted: false, exitCode: null, signal: 'SIGTERM' });
    expect(result.output).toBe('started\n');
    expect(result.durationMs).toBeGreaterThanOrEqual(700);
    expect(result.durationMs).toBeLessThan(3_000);
    expect(alive(grandchild)).toBe(false);
  });

  it('on timeout uses SIGKILL for a process that ignores SIGTERM', async () => {
    const pidFile = path.join(dir, 'stubborn.pid');
    const result = await run(`bash -c 'trap "" TERM HUP; echo $$ > "$0"; while :; do sleep 0.05; done' ${pidFile} & wait`, {
      timeoutMs: 500,
      terminal: terminal({ killGraceMs: 300 }),
    });
    const stubborn = Number(await waitForFile(pidFile));
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(alive(stubborn)).toBe(false);
  });

  it('on abort kills at once and says it was aborted', async () => {
    const controller = new AbortController();
    const pidFile = path.join(dir, 'child.pid');
    const running = run(`sleep 100 & echo $! > ${pidFile}; wait`, { signal: controller.signal, timeoutMs: 60_000 });
    const child = Number(await waitForFile(pidFile));
    const abortedAt = Date.now();
    controller.abort();
    const result = await running;
    expect(Date.now() - abortedAt).toBeLessThan(3_000);
    expect(result).toMatchObject({ aborted: true, timedOut: false, exitCode: null });
    expect(alive(child)).toBe(false);
  });

  it('does not start a command whose signal is already aborted', async () => {
    const marker = path.join(dir, 'ran');
    const result = await run(`touch ${marker}`, { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ aborted: true, exitCode: null, output: '' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('dispose kills every running command', async () => {
    const shared = terminal();
    const first = run('sleep 100', { terminal: shared, timeoutMs: 60_000 });
    const second = run('sleep 100', { terminal: shared, timeoutMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const disposedAt = Date.now();
    shared.dispose();
    const results = await Promise.all([first, second]);
    expect(Date.now() - disposedAt).toBeLessThan(3_000);
    expect(results.map((result) => result.aborted)).toEqual([true, true]);
    await expect(run('echo no', { terminal: shared })).rejects.toThrow(/disposed/);
  });

  it('does not lose the last output of a command that prints and exits at once', async () => {
    const shared = terminal();
    for (let i = 0; i < 20; i++) {
      const viaMarker = await run(`printf 'last-${i}'`, { terminal: shared });
      expect(viaMarker).toMatchObject({ output: `last-${i}`, exitCode: 0 });
      // exec replaces the command's subshell with a program that closes the terminal and exits at once.
      const viaExit = await run(`exec printf 'exec-${i}'`, { terminal: shared });
      expect(viaExit).toMatchObject({ output: `exec-${i}`, exitCode: 0 });
    }
  });

  it('does not lose the end of a large output, nor its exit code', async () => {
    const shared = terminal();
    for (let i = 0; i < 12; i++) {
      const result = await run(`seq 1 150000; echo "end-${i}"; exit ${i}`, { terminal: shared });
      expect(result.exitCode).toBe(i);
      expect(result.output.endsWith(`149999\n150000\nend-${i}\n`)).toBe(true);
    }
  });

  it('reports a shell killed by a signal with the signal name and no exit code', async () => {
    const result = await run('echo dying; kill -9 $$');
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGKILL', timedOut: false, aborted: false });
    expect(result.output).toBe('dying\n');
  });

  it('does not let a background job outlive its command', async () => {
    const pidFile = path.join(dir, 'job.pid');
    const result = await run(`sleep 100 & echo $! > ${pidFile}; echo left`);
    expect(result).toMatchObject({ output: 'left\n', exitCode: 0 });
    const job = Number(await waitForFile(pidFile));
    const deadline = Date.now() + 2_000;
    while (alive(job) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(alive(job)).toBe(false);
  });

  it('keeps the start and the end of a huge output and marks the cut', async () => {
    const result = await run('seq 1 300000', { terminal: terminal({ keepChars: 10_000 }), timeoutMs: 30_000 });
    expect(result.exitCode).toBe(0);
    expect(result.output.length).toBeLessThan(20_100);
    expect(result.output.startsWith('1\n2\n3\n')).toBe(true);
    expect(result.output.endsWith('299999\n300000\n')).toBe(true);
    expect(result.output).toMatch(/\[… \d+ characters of output cut …\]/);
  });

  it('caps a multi-megabyte output at about 2 MB by default', async () => {
    // 3.5 MB of lines: more than the 1 MB head plus the 1 MB tail that are kept.
    const result = await run("yes 'abcdefghijklmnopqrstuvwxyz0123456789' | head -n 100000", { timeoutMs: 30_000 });
    expect(result.exitCode).toBe(0);
    expect(result.output.length).toBeLessThan(2_100_000);
    expect(result.output.length).toBeGreaterThan(1_900_000);
    expect(result.output).toContain('characters of output cut');
  });

  it('strips ANSI escapes and carriage returns from the output, but not from the live chunks', async () => {
    const chunks: string[] = [];
    const result = await run(String.raw`printf '\033[1;31mred\033[0m plain\n\033]0;title\007\033[2Kline\n10%%\r50%%\r100%%\n'`, {
      onData: (chunk) => chunks.push(chunk),
    });
    expect(result.output).toBe('red plain\nline\n100%\n');
    const raw = chunks.join('');
    expect(raw).toContain('\x1b[1;31mred');
    expect(raw).toContain('\r\n');
    expect(raw).not.toContain('TETHER_END');
  });

  it('never shows the end marker in the live chunks', async () => {
    const chunks: string[] = [];
    const shared = terminal();
    for (let i = 0; i < 5; i++)
      await run(`printf 'x%.0s' $(seq 1 ${1000 * i + 1})`, { terminal: shared, onData: (chunk) => chunks.push(chunk) });
    expect(chunks.join('')).not.toMatch(/TETHER|_END_/);
  });

  it('keeps the output of concurrent commands apart', async () => {
    const shared = terminal();
    const jobs = [1, 2, 3, 4, 5].map((job) => run(`for i in $(seq 1 200); do echo "job-${job}-$i"; done`, { terminal: shared }));
    const results = await Promise.all(jobs);
    results.forEach((result, index) => {
      const lines = result.output.trimEnd().split('\n');
      expect(lines).toHaveLength(200);
      expect(lines.every((line) => line.startsWith(`job-${index + 1}-`))).toBe(true);
    });
  });
});
