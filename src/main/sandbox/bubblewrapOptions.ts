/**
 * bubblewrap's command line as data: which options it has, how many values each takes, and which
 * make something at a place inside the sandbox. Read by the fitting of the runtime's command
 * (runtimeCommand.ts) and by the dark home (darkHome.ts), which must both agree on them.
 */

/** A bubblewrap option and its values. */
export type BwrapOption = [name: string, ...values: string[]];

/** bubblewrap's options and how many values each takes (bwrap --help, 0.8); one not listed stops the fitting. */
export const BWRAP_OPTIONS: Readonly<Record<string, number>> = {
  '--unshare-all': 0,
  '--share-net': 0,
  '--unshare-user': 0,
  '--unshare-user-try': 0,
  '--unshare-ipc': 0,
  '--unshare-pid': 0,
  '--unshare-net': 0,
  '--unshare-uts': 0,
  '--unshare-cgroup': 0,
  '--unshare-cgroup-try': 0,
  '--disable-userns': 0,
  '--assert-userns-disabled': 0,
  '--clearenv': 0,
  '--new-session': 0,
  '--die-with-parent': 0,
  '--as-pid-1': 0,
  '--userns': 1,
  '--userns2': 1,
  '--pidns': 1,
  '--uid': 1,
  '--gid': 1,
  '--hostname': 1,
  '--chdir': 1,
  '--unsetenv': 1,
  '--lock-file': 1,
  '--sync-fd': 1,
  '--remount-ro': 1,
  '--exec-label': 1,
  '--file-label': 1,
  '--proc': 1,
  '--dev': 1,
  '--tmpfs': 1,
  '--mqueue': 1,
  '--dir': 1,
  '--seccomp': 1,
  '--add-seccomp-fd': 1,
  '--block-fd': 1,
  '--userns-block-fd': 1,
  '--info-fd': 1,
  '--json-status-fd': 1,
  '--cap-add': 1,
  '--cap-drop': 1,
  '--perms': 1,
  '--size': 1,
  '--setenv': 2,
  '--bind': 2,
  '--bind-try': 2,
  '--dev-bind': 2,
  '--dev-bind-try': 2,
  '--ro-bind': 2,
  '--ro-bind-try': 2,
  '--bind-fd': 2,
  '--ro-bind-fd': 2,
  '--file': 2,
  '--bind-data': 2,
  '--ro-bind-data': 2,
  '--symlink': 2,
  '--chmod': 2,
};

/** Options that mount or make something inside the sandbox: their last value is where. */
const PLACING = new Set([
  '--bind',
  '--bind-try',
  '--ro-bind',
  '--ro-bind-try',
  '--dev-bind',
  '--dev-bind-try',
  '--bind-fd',
  '--ro-bind-fd',
  '--file',
  '--bind-data',
  '--ro-bind-data',
  '--symlink',
  '--chmod',
  '--remount-ro',
  '--tmpfs',
  '--dev',
  '--proc',
  '--dir',
  '--mqueue',
]);

/** Where an option puts something inside the sandbox; undefined for one that places nothing. */
export function destinationOf(option: BwrapOption): string | undefined {
  return PLACING.has(option[0]) ? option[BWRAP_OPTIONS[option[0]] ?? 0] : undefined;
}
