import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPageServer } from '../../../test/support/pageServer';
import { runSandboxed } from '../../../test/support/sandboxedRun';
import { createPtyTerminal } from '../terminal/pty';
import { createCommandSandbox, type CommandSandbox } from './commandSandbox';
import { runtimeStopped } from './sandboxRuntime';

// The local form of a profile (profileCommands.ts) through real bubblewrap, attacked as if the shell
// analysis had judged a line local that is not: whatever such a line does, it reaches no host, no
// proxy, no unix socket, leaves nothing running, and its refused writes are still recorded.

const terminal = createPtyTerminal();
let root: string;
let workspace: string;
let sandbox: CommandSandbox | undefined;
let page: Awaited<ReturnType<typeof startPageServer>> | undefined;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-local-form-')));
  workspace = path.join(root, 'project');
  fs.mkdirSync(path.join(workspace, '.git', 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(workspace, '.git', 'config'), '[core]\n');
});
afterEach(async () => {
  sandbox?.dispose();
  sandbox = undefined;
  await page?.close();
  page = undefined;
  fs.rmSync(root, { recursive: true, force: true });
});
afterAll(async () => {
  terminal.dispose();
  await runtimeStopped();
});

/** Runs `command` in the session's sandbox as run_command would for a line it judged local (or not). */
async function run(command: string, staysLocal = true) {
  sandbox ??= createCommandSandbox({
    workspace,
    dataDir: path.join(root, 'data'),
    home: path.join(root, 'home'),
    custom: { allowWrite: [], denyWrite: [], denyRead: [], allowedDomains: ['localhost', '127.0.0.1'], packageRegistries: false },
  });
  return runSandboxed(sandbox, terminal, command, workspace, staysLocal);
}

describe('a line judged local runs in the local form', () => {
  it('runs without bridges or outer shells, and keeps its output and exit status', async () => {
    const result = await run('cat /proc/[0-9]*/comm; exit 3');
    expect(result.exitCode).toBe(3);
    // What runs besides the command: bubblewrap's init and apply-seccomp (its outer part and its init);
    // one shell, the command's own, and no bridge (cat is not listed: the shell reads the folder before it starts cat).
    const names = (output: string) => output.trim().split(/\r?\n/).sort();
    expect(names(result.output)).toEqual(['apply-seccomp', 'apply-seccomp', 'bash', 'bwrap']);
    const networked = await run('cat /proc/[0-9]*/comm', false);
    expect(names(networked.output)).toEqual(['apply-seccomp', 'apply-seccomp', 'bash', 'bash', 'bwrap', 'socat', 'socat']);
  });

  it('reaches no host, not even one the fence allows: not through the proxy variables, not directly, not by the proxy’s unix socket', async () => {
    page = await startPageServer('<p>reached</p>');
    const port = new URL(page.url).port;
    const attempts = [
      `curl -sS --max-time 5 http://localhost:${port}/notes`,
      `curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:${port}/notes`,
      `exec 3<>/dev/tcp/127.0.0.1/${port}; printf 'GET /notes HTTP/1.0\\r\\n\\r\\n' >&3; cat <&3`,
      // The runtime's proxy sockets are bound into every profile; the filter refuses any unix socket.
      `for s in /tmp/claude-*.sock; do python3 -c 'import socket,sys; c=socket.socket(socket.AF_UNIX); c.connect(sys.argv[1]); print("connected", sys.argv[1])' "$s"; done`,
      `python3 -c 'import socket; socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)' && echo made-unix-socket`,
    ];
    for (const attempt of attempts) {
      const result = await run(attempt);
      expect(result.output, attempt).not.toMatch(/reached|connected|made-unix-socket/);
      expect(result.exitCode, attempt).not.toBe(0);
    }
    expect(page.hits()).toBe(0);
    // The same host through the network form, to show the attempts above would have worked there.
    const networked = await run(`curl -sS --max-time 10 http://localhost:${port}/notes`, false);
    expect(networked.output).toContain('reached');
  });

  it('leaves nothing running after the command: a background process ends with it', async () => {
    const mark = `tether-left-${randomBytes(4).toString('hex')}`;
    const result = await run(`(exec -a ${mark} sleep 600) & disown; setsid sh -c 'exec -a ${mark} sleep 600' & echo started`);
    expect(result.output).toContain('started');
    const alive = () =>
      fs
        .readdirSync('/proc')
        .filter((entry) => /^\d+$/.test(entry))
        .some((entry) => {
          try {
            return fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(mark);
          } catch {
            return false;
          }
        });
    const until = Date.now() + 5_000;
    while (alive() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive()).toBe(false);
  });

  it('still records the writes the sandbox refused, for a command that hid them', async () => {
    const outside = fs.mkdtempSync('/var/tmp/tether-local-form-outside-');
    try {
      const result = await run(`touch ${outside}/planted 2>/dev/null; true`);
      expect(result.exitCode).toBe(0);
      expect(fs.existsSync(path.join(outside, 'planted'))).toBe(false);
      expect(result.notes.join(' ')).toContain(`${outside}/planted`);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
