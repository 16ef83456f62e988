import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * apply-seccomp as an execute-only copy (mode 0111), bound over the library's own inside the fence.
 *
 * apply-seccomp moves into a user and PID namespace of its own, forks the command under the seccomp
 * filter, and stays behind unfiltered as the supervisor of the write observer. The command is root
 * in that same user namespace with every capability there, and bubblewrap's /proc still lists the
 * supervisor: so the command could open /proc/<supervisor>/mem and write it (issue 30: a byte written
 * into its stack, through real bubblewrap), and an unfiltered process the command steers does what
 * the filter forbids, such as opening a unix socket to a host service.
 *
 * The kernel marks a process not dumpable when it execs a file its user cannot read (would_dump in
 * fs/exec.c), and ties its memory to the user namespace the file belongs to: bubblewrap's, where
 * the command holds no capability (bubblewrap drops them, CAP_DAC_OVERRIDE and CAP_SYS_PTRACE
 * included). Its /proc/<pid>/mem, environ, maps and fd, ptrace and process_vm_* then need
 * CAP_SYS_PTRACE there, which nothing in the fence has. The filtered command itself is dumpable
 * again: it is bash, which is readable. This holds while fs.suid_dumpable is 0 or 2 (the kernel's
 * default and the usual setting); at 1 an unreadable program stays dumpable.
 *
 * The copy lives in Tether's data folder, which every command sees dark (a tmpfs) and none may
 * write, one per profile (its `key`), and goes with the profile.
 */
export interface UnreadableSupervisor {
  /** The execute-only copy, on this machine. */
  copy: string;
  /** The library's apply-seccomp as its command names it: where the copy is bound inside the fence. */
  boundAt: string;
  remove(): void;
}

export function unreadableSupervisor(applySeccomp: string, folder: string, key: string): UnreadableSupervisor {
  const own = path.join(folder, key);
  fs.rmSync(own, { recursive: true, force: true });
  fs.mkdirSync(own, { recursive: true, mode: 0o700 });
  const copy = path.join(own, 'apply-seccomp');
  // Written under another name and renamed: a copy is never seen half written or readable.
  const writing = `${copy}.${randomUUID()}`;
  const library = fs.realpathSync(applySeccomp);
  fs.copyFileSync(library, writing);
  fs.chmodSync(writing, 0o111);
  fs.renameSync(writing, copy);
  return {
    copy,
    boundAt: library,
    remove: () => fs.rmSync(own, { recursive: true, force: true }),
  };
}
