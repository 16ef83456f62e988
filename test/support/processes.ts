import fs from 'node:fs';

/**
 * Whether process `pid` still runs. Gone or a zombie is dead: in a container nobody may reap an
 * orphan, so signal 0 alone would call it alive.
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '');
  } catch {
    return process.platform !== 'linux';
  }
}

/** Polls `check` every 25 ms until it holds; fails after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The processes (of any pid namespace, by their id here) whose working folder is `folder` or inside
 * it, and whose command line matches `command`: how a test finds a sandboxed server, whose own
 * process id is its namespace's.
 */
export function processesIn(folder: string, command: RegExp): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = fs.readlinkSync(`/proc/${entry}/cwd`);
      if (cwd !== folder && !cwd.startsWith(`${folder}/`)) continue;
      if (command.test(fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8')) && alive(Number(entry))) found.push(Number(entry));
    } catch {
      // Gone, or another user's.
    }
  }
  return found;
}
