import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSandboxed } from '../../../test/support/sandboxedRun';
import { createPtyTerminal } from '../terminal/pty';
import { createCommandSandbox, type CommandSandbox } from './commandSandbox';
import { supervisorsRoot } from './fence';
import { processFolder } from './processFolders';
import { runtimeStopped } from './sandboxRuntime';

// apply-seccomp's supervisor (unreadableSupervisor.ts) through real bubblewrap, attacked from the
// filtered command: bubblewrap's /proc lists it, and the command is root in its user namespace, so
// only its being undumpable keeps the command from writing into a process the filter does not hold.

const terminal = createPtyTerminal();
let root: string;
let workspace: string;
let dataDir: string;
let sandbox: CommandSandbox | undefined;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-supervisor-')));
  workspace = path.join(root, 'project');
  dataDir = path.join(root, 'data');
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(workspace, 'reach.py'), REACH);
});
afterEach(() => {
  sandbox?.dispose();
  sandbox = undefined;
  fs.rmSync(root, { recursive: true, force: true });
});
afterAll(async () => {
  terminal.dispose();
  await runtimeStopped();
});

async function run(command: string, staysLocal: boolean) {
  sandbox ??= createCommandSandbox({
    workspace,
    dataDir,
    home: path.join(root, 'home'),
    custom: { allowWrite: [], denyWrite: [], denyRead: [], allowedDomains: [], packageRegistries: false },
  });
  return runSandboxed(sandbox, terminal, command, workspace, staysLocal);
}

/**
 * For every process outside the seccomp filter that /proc lists: what the command could do to it.
 * Each attempt prints `ok` or the error; a write into memory flips the first byte of the process's
 * first writable mapping, reads it back, and puts it back.
 */
const REACH = String.raw`
import ctypes, json, os, re
libc = ctypes.CDLL(None, use_errno=True)
class iovec(ctypes.Structure):
    _fields_ = [('base', ctypes.c_void_p), ('len', ctypes.c_size_t)]
def attempt(act):
    try:
        return act()
    except OSError as error:
        return 'errno %d' % error.errno
def writable_address(pid):
    for line in open('/proc/%d/maps' % pid):
        if ' rw-p ' in line:
            return int(line.split('-')[0], 16)
    raise OSError(0, 'no writable mapping')
def write_memory(pid):
    address = writable_address(pid)
    fd = os.open('/proc/%d/mem' % pid, os.O_RDWR)
    try:
        old = os.pread(fd, 1, address)
        os.pwrite(fd, bytes([old[0] ^ 0x5a]), address)
        written = os.pread(fd, 1, address) != old
        os.pwrite(fd, old, address)
        return 'ok' if written else 'not written'
    finally:
        os.close(fd)
def call(result):
    return 'ok' if result >= 0 else 'errno %d' % ctypes.get_errno()
def levels(status):
    return re.search(r'^NSpid:\s*(.*)$', status, re.M).group(1).split()
own_depth = len(levels(open('/proc/self/status').read()))
def vm_write(pid, inner):
    buf = ctypes.create_string_buffer(1)
    local, remote = iovec(ctypes.cast(buf, ctypes.c_void_p), 1), iovec(writable_address(pid), 1)
    return call(libc.process_vm_writev(inner, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0))
def fd_links(pid):
    links = [attempt(lambda: os.readlink('/proc/%d/fd/%s' % (pid, fd)) and 'ok') for fd in os.listdir('/proc/%d/fd' % pid)]
    return 'ok' if 'ok' in links else (links[0] if links else 'none')
unfiltered = []
for pid in sorted(int(entry) for entry in os.listdir('/proc') if entry.isdigit()):
    try:
        status = open('/proc/%d/status' % pid).read()
    except OSError:
        continue
    if re.search(r'^Seccomp:\s*0$', status, re.M) is None:
        continue
    # Its pid in the command's own PID namespace, if it has one there: ptrace and process_vm_* take that.
    names = levels(status)
    inner = int(names[-1]) if len(names) == own_depth else None
    unreachable = 'not in the PID namespace'
    unfiltered.append({
        'name': re.search(r'^Name:\s*(.*)$', status, re.M).group(1),
        'memory': attempt(lambda: write_memory(pid)),
        'openMemory': attempt(lambda: os.close(os.open('/proc/%d/mem' % pid, os.O_RDWR)) or 'ok'),
        'environ': attempt(lambda: open('/proc/%d/environ' % pid, 'rb').read() and 'ok'),
        'fdLinks': attempt(lambda: fd_links(pid)),
        # PTRACE_SEIZE, which does not stop the process; the kernel detaches when the probe exits.
        'ptrace': call(libc.ptrace(0x4206, inner, 0, 0)) if inner else unreachable,
        'processVmWrite': attempt(lambda: vm_write(pid, inner)) if inner else unreachable,
    })
print('REACH ' + json.dumps(unfiltered))
`;

interface Reach {
  name: string;
  memory: string;
  openMemory: string;
  environ: string;
  fdLinks: string;
  ptrace: string;
  processVmWrite: string;
}

function reachOf(output: string): Reach[] {
  const line = output.split(/\r?\n/).find((entry) => entry.startsWith('REACH '));
  if (!line) throw new Error(`the probe printed no result:\n${output}`);
  return JSON.parse(line.slice('REACH '.length)) as Reach[];
}

describe('the process apply-seccomp leaves outside the filter', () => {
  for (const staysLocal of [true, false]) {
    it(`cannot be written, read or traced by the filtered command (${staysLocal ? 'local' : 'network'} form)`, async () => {
      const result = await run('python3 reach.py', staysLocal);
      expect(result.exitCode, result.output).toBe(0);
      const unfiltered = reachOf(result.output);
      // The probe found the supervisor (and, in the network form, the outer shell and the bridges).
      expect(unfiltered.map((entry) => entry.name)).toContain('apply-seccomp');
      for (const entry of unfiltered) {
        // EACCES: the kernel's ptrace access check (the same uid, but an undumpable process in a user
        // namespace where the command has no CAP_SYS_PTRACE). ESRCH: not in the command's PID namespace.
        expect(entry).toEqual({
          name: entry.name,
          memory: 'errno 13',
          openMemory: 'errno 13',
          environ: 'errno 13',
          fdLinks: 'errno 13',
          ptrace: expect.not.stringMatching(/^ok$/),
          processVmWrite: expect.not.stringMatching(/^ok$/),
        });
      }
    }, 90_000);
  }

  it('still runs the command under the filter, and still records the writes the sandbox refused', async () => {
    const outside = fs.mkdtempSync('/var/tmp/tether-supervisor-outside-');
    try {
      const result = await run(
        `echo kept > made.txt; cat made.txt; grep -E '^(Seccomp|NoNewPrivs):' /proc/self/status; touch ${outside}/planted 2>/dev/null; true`,
        true,
      );
      expect(result.exitCode).toBe(0);
      expect(result.output).toMatch(/kept\r?\nNoNewPrivs:\s*1\r?\nSeccomp:\s*2/);
      expect(fs.readFileSync(path.join(workspace, 'made.txt'), 'utf8')).toBe('kept\n');
      expect(fs.existsSync(path.join(outside, 'planted'))).toBe(false);
      expect(result.notes.join(' ')).toContain(`${outside}/planted`);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  }, 90_000);

  it('is an execute-only copy in Tether’s data folder while the sandbox holds it, and goes with it', async () => {
    await run('true', true);
    const folder = processFolder(supervisorsRoot(dataDir));
    const copies = fs.readdirSync(folder).map((profile) => path.join(folder, profile, 'apply-seccomp'));
    expect(copies).toHaveLength(1);
    expect(fs.statSync(copies[0]!).mode & 0o7777).toBe(0o111);
    sandbox!.dispose();
    sandbox = undefined;
    // The profile is let go of once its last command's promise settles.
    const until = Date.now() + 5_000;
    while (fs.readdirSync(folder).length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fs.readdirSync(folder)).toEqual([]);
  }, 90_000);
});
