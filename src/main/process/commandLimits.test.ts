import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultLimits, effectiveLimits, limitHit, limitsPrefix } from './commandLimits';
import { createPtyTerminal } from '../terminal/pty';
import type { Terminal } from '../terminal/terminal';

const terminals: Terminal[] = [];
afterEach(() => {
  for (const terminal of terminals.splice(0)) terminal.dispose();
});

async function run(command: string, limits = { memoryMiB: 256, processes: 0 }) {
  const terminal = createPtyTerminal({ limits });
  terminals.push(terminal);
  return terminal.run({ command, cwd: os.tmpdir(), timeoutMs: 60_000, signal: new AbortController().signal });
}

describe('what one command may take of the machine', () => {
  it('defaults to half the memory, at most 16 GiB and at least 1 GiB per process, and 4096 processes; settings change either, 0 lifts it', () => {
    expect(defaultLimits(24 * 1024 ** 3)).toEqual({ memoryMiB: 12 * 1024, processes: 4096 });
    expect(defaultLimits(64 * 1024 ** 3).memoryMiB).toBe(16 * 1024);
    expect(defaultLimits(1024 ** 3).memoryMiB).toBe(1024);
    expect(effectiveLimits({ memoryMiB: 0 }, { memoryMiB: 8, processes: 9 })).toEqual({ memoryMiB: 0, processes: 9 });
    expect(limitsPrefix({ memoryMiB: 0, processes: 0 })).toBe('');
    expect(limitsPrefix({ memoryMiB: 2, processes: 10 })).toBe('ulimit -d 2048 2>/dev/null; ulimit -u 10 2>/dev/null;');
  });

  it('ends a memory hog alone and says which limit it hit; the next command runs as usual', async () => {
    const hog = await run(`python3 -c "b = bytearray(600 * 1024 * 1024); print('allocated')"`);
    expect(hog.exitCode).not.toBe(0);
    expect(hog.output).not.toContain('allocated');
    expect(hog.limit).toMatch(/memory limit \(256 MiB per process/);
    const fine = await run(`python3 -c "b = bytearray(50 * 1024 * 1024); print('allocated')"`);
    expect(fine.exitCode).toBe(0);
    expect(fine.output).toContain('allocated');
    expect(fine.limit).toBeUndefined();
  }, 60_000);

  it('holds for what the command starts, which cannot raise it', async () => {
    const raised = await run(`ulimit -d unlimited; echo "now $(ulimit -d)"; bash -c 'ulimit -d'`);
    expect(raised.output).toMatch(/not permitted|cannot modify/);
    expect(raised.output.trim().split('\n').at(-1)).toBe(String(256 * 1024));
  });

  it('lets node, which only reserves its heap, start and work under a tight limit', async () => {
    const node = await run(`${process.execPath} -e "const a = new Array(1e6).fill(1); console.log('node ok', a.length)"`, {
      memoryMiB: 512,
      processes: 0,
    });
    expect(node.output).toContain('node ok 1000000');
  });

  // RLIMIT_NPROC binds every user but root; as root (CI), the fork bomb runs as nobody.
  const asSomeone = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--'] : [];
  it('ends a fork bomb at the process limit and says so', () => {
    const bomb = spawnSync(
      asSomeone[0] ?? 'bash',
      [
        ...asSomeone.slice(1),
        ...(asSomeone.length ? ['bash'] : []),
        '-c',
        `${limitsPrefix({ memoryMiB: 0, processes: 40 })} for i in $(seq 1 200); do sleep 2 & done; wait`,
      ],
      { encoding: 'utf8', timeout: 60_000, cwd: os.tmpdir() },
    );
    const output = `${bomb.stdout}${bomb.stderr}`;
    expect(output).toMatch(/Resource temporarily unavailable/);
    expect(limitHit(output, 1, { memoryMiB: 0, processes: 40 })).toMatch(/process limit \(40 processes and threads/);
  }, 70_000);

  it('reads what programs print when they run out, and says nothing when the command did well', () => {
    const limits = { memoryMiB: 1024, processes: 100 };
    for (const said of [
      'MemoryError',
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
      'java.lang.OutOfMemoryError: Java heap space',
      'fatal error: runtime: out of memory',
      'terminate called after throwing an instance of std::bad_alloc',
      'memory allocation of 1048576 bytes failed',
      'bash: fork: Cannot allocate memory',
    ]) {
      expect(limitHit(said, 1, limits), said).toMatch(/memory limit/);
    }
    for (const said of [
      'bash: fork: retry: Resource temporarily unavailable',
      "RuntimeError: can't start new thread",
      'java.lang.OutOfMemoryError: unable to create native thread',
    ]) {
      expect(limitHit(said, 1, limits), said).toMatch(/process limit|memory limit/);
    }
    expect(limitHit('MemoryError', 0, limits)).toBeUndefined();
    expect(limitHit('MemoryError', 1, { memoryMiB: 0, processes: 0 })).toBeUndefined();
    expect(limitHit('tests failed', 1, limits)).toBeUndefined();
  });
});
