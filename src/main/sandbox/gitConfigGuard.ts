import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isPlainGitSetting } from '../workspace/plainGitSettings';

/**
 * The second net under a line that runs with the workspace's `.git/config` writable
 * (shell/gitConfigRewrite.ts proved it is one plain git command): the file as it was before the
 * command, and after it a check that every setting that changed is plain (workspace/plainGitSettings.ts),
 * or went, came or moved with its branch or remote as git moves them ({@link refusedChanges}).
 * When one is not, or the file is no longer a config git can read, the file is put back as it was,
 * whole, and the command's result says so: a proof gone wrong never leaves a setting the person's
 * own git would run.
 */
export interface GitConfigGuard {
  readonly file: string;
  /** After the command: the settings it changed that are not plain (the file is back as it was then), or none. */
  check(): string[];
}

export function guardGitConfig(file: string): GitConfigGuard | undefined {
  // The remote a push goes to may also be named in the person's own config (remote.pushDefault).
  const followedOutside = pushDefaultsOutside();
  let before: Buffer;
  let mode: number;
  try {
    const stat = fs.lstatSync(file);
    if (!stat.isFile()) return undefined;
    mode = stat.mode & 0o777;
    before = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  return {
    file,
    check() {
      const after = readRegularFile(file);
      if (after?.equals(before)) return [];
      const refused = (after === undefined ? undefined : refusedChanges(before, after, followedOutside)) ?? [
        'the file itself (git cannot read it as it is now)',
      ];
      if (refused.length > 0) putBack(file, before, mode);
      return refused;
    },
  };
}

function readRegularFile(file: string): Buffer | undefined {
  try {
    return fs.lstatSync(file).isFile() ? fs.readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The settings a change made that are not plain, or undefined when git cannot read one of the files.
 * A plain setting may change in any way. Any other may only go with the branch or remote it belongs
 * to, or come with one: git drops a section when a branch or remote goes, moves it when one is renamed
 * and copies it when a branch is copied, so `branch.topic.vscode-merge-base` (VS Code's) leaves with
 * `git branch -D topic`, and `remote.origin.uploadpack` (the person's) follows `git remote rename`. A
 * value that comes is one the file held before under the same name in another branch or remote: never
 * a program the person did not name.
 */
function refusedChanges(before: Buffer, after: Buffer, followedOutside: readonly string[]): string[] | undefined {
  const [was, is] = [settingsOf(before), settingsOf(after)];
  if (was === undefined || is === undefined) return undefined;
  const heldBefore = (key: string, value: string) => [...was].some(([other, values]) => sameKind(other, key) && values.includes(value));
  const keys = new Set([...was.keys(), ...is.keys()]);
  const notPlain = [...keys].filter((key) => {
    if (isPlainGitSetting(key)) return false;
    const gone = without(was.get(key) ?? [], is.get(key) ?? []);
    const came = without(is.get(key) ?? [], was.get(key) ?? []);
    if (gone.length > 0 && !MOVABLE_SECTIONS.has(sectionOf(key))) return true;
    return came.some((value) => !MOVABLE_SECTIONS.has(sectionOf(key)) || !heldBefore(key, value));
  });
  return [...new Set([...notPlain, ...redirected(was, is, followedOutside)])];
}

type Settings = Map<string, string[]>;

/**
 * The settings that send the person's own `git push` or `git pull` somewhere new. Without a remote
 * named, those go to `origin`, to `remote.pushDefault` (here or in the person's own config) or to
 * the remote a branch follows (`branch.<name>.remote`, `.pushremote`), or to the only remote there
 * is. Any remote the file had may only lose addresses; one followed anew may hold only addresses a
 * followed remote held before. So `git remote set-url origin URL`, or `git remote add x URL && git
 * branch -u x/main` over two commands, is refused, while adding `upstream` beside origin, renaming or
 * removing a remote nothing follows, and tracking an existing one stay plain.
 */
function redirected(was: Settings, is: Settings, followedOutside: readonly string[]): string[] {
  const before = followedAddresses(was, followedOutside);
  const heldBefore = new Set([...before.values()].flat());
  const hadBefore = remoteAddresses(was);
  const refused: string[] = [];
  const judged: [string, string[], Set<string>][] = [];
  // Any remote the file had keeps its addresses: which remote a push without one named goes to
  // depends on more than the file (the only remote, a pushDefault of the person's).
  for (const [remote, addresses] of remoteAddresses(is)) {
    const had = hadBefore.get(remote);
    if (had) judged.push([remote, addresses, new Set(had)]);
  }
  for (const [remote, addresses] of followedAddresses(is, followedOutside)) {
    judged.push([remote, addresses, before.has(remote) ? new Set(before.get(remote)) : heldBefore]);
  }
  for (const [remote, addresses, allowed] of judged) {
    if (addresses.every((address) => allowed.has(address))) continue;
    // Named: the settings of the way there that this command changed, added or took away.
    const valuesOf = (settings: Settings, key: string) => (settings.get(key) ?? []).join('\n');
    const wayThere = (key: string) =>
      REMOTE_ADDRESS.exec(key)?.[1] === remote || (FOLLOWS.test(key) && [...(was.get(key) ?? []), ...(is.get(key) ?? [])].includes(remote));
    const keys = [...new Set([...is.keys(), ...was.keys()])];
    refused.push(...keys.filter((key) => wayThere(key) && valuesOf(was, key) !== valuesOf(is, key)));
  }
  return [...new Set(refused)];
}

const REMOTE_ADDRESS = /^remote\.(.+)\.(?:url|pushurl)$/;
const FOLLOWS = /^(?:branch\..+\.(?:remote|pushremote)|remote\.pushdefault)$/;

/**
 * Each remote a push or pull without one named can reach, with its addresses. A name no remote of
 * the file holds is an address itself: git takes it for a URL or a path (`evil` is the folder, bare
 * repository or `gitdir:` file of that name in the work tree, which a command can make at any time),
 * so a dangling `origin` counts as the path `origin`. `.`, this repository, is one too: it sends
 * nothing away, but a pull from it merges refs a command can write (a commit made with plumbing that
 * adds a hook the person's hooks folder runs), and unlike a pull from a remote nothing is fetched first.
 */
function followedAddresses(settings: Settings, followedOutside: readonly string[]): Map<string, string[]> {
  const remotes = remoteAddresses(settings);
  // git pushes to and pulls from a repository's only remote, whatever its name.
  const only = remotes.size === 1 ? [...remotes.keys()] : [];
  const followed = new Set(['origin', ...only, ...followedOutside]);
  for (const [key, values] of settings) if (FOLLOWS.test(key)) values.forEach((value) => followed.add(value));
  const addresses = new Map<string, string[]>();
  for (const remote of followed) addresses.set(remote, remotes.get(remote) ?? [remote]);
  return addresses;
}

/** Each remote the file holds an address for, with its addresses (url and pushurl, in order). */
function remoteAddresses(settings: Settings): Map<string, string[]> {
  const remotes = new Map<string, string[]>();
  for (const [key, values] of settings) {
    const remote = REMOTE_ADDRESS.exec(key)?.[1];
    if (remote !== undefined) remotes.set(remote, [...(remotes.get(remote) ?? []), ...values]);
  }
  return remotes;
}

/** `remote.pushDefault` as the person's system and global config set it, read with no repository. */
function pushDefaultsOutside(): string[] {
  try {
    return execFileSync('git', ['config', '--get-all', 'remote.pushdefault'], {
      cwd: os.tmpdir(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...gitEnvironment(), HOME: os.homedir() },
    })
      .split('\n')
      .filter(Boolean);
  } catch {
    return [];
  }
}

/** What git is run with here: no repository, nothing from the command's environment. */
function gitEnvironment(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', GIT_DIR: path.join(os.tmpdir(), 'tether-no-repository'), LC_ALL: 'C' };
}

/** The sections git drops, moves and copies whole with a branch or a remote. */
const MOVABLE_SECTIONS = new Set(['branch', 'remote']);

function sectionOf(key: string): string {
  return key.slice(0, key.indexOf('.'));
}

/** The same setting of another branch or remote: same section and name, any subsection. */
function sameKind(one: string, other: string): boolean {
  return sectionOf(one) === sectionOf(other) && one.slice(one.lastIndexOf('.')) === other.slice(other.lastIndexOf('.'));
}

/** The values of `values` that `others` does not hold (each counted once per time it appears). */
function without(values: readonly string[], others: readonly string[]): string[] {
  const left = [...others];
  return values.filter((value) => {
    const at = left.indexOf(value);
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}

/**
 * Each key's values, in order, as git reads the file: `git config --file - --list`, from a folder
 * that is no repository, with no system or global config, and nothing the file includes.
 */
function settingsOf(content: Buffer): Settings | undefined {
  let listed: string;
  try {
    listed = execFileSync('git', ['config', '--file', '-', '--null', '--list'], {
      input: content,
      cwd: os.tmpdir(),
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { ...gitEnvironment(), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull },
    });
  } catch {
    return undefined;
  }
  const settings: Settings = new Map();
  for (const record of listed.split('\0')) {
    if (record === '') continue;
    const newline = record.indexOf('\n');
    const key = newline < 0 ? record : record.slice(0, newline);
    const value = newline < 0 ? '\u0000none' : record.slice(newline + 1);
    settings.set(key, [...(settings.get(key) ?? []), value]);
  }
  return settings;
}

/** Written beside it under another name and renamed over it: never seen half written. */
function putBack(file: string, content: Buffer, mode: number): void {
  const writing = path.join(path.dirname(file), `.config.tether-${randomUUID()}`);
  fs.writeFileSync(writing, content, { mode });
  // A rename replaces a file or a link without following it; only a folder has to go first.
  if (fs.lstatSync(file, { throwIfNoEntry: false })?.isDirectory()) fs.rmSync(file, { recursive: true, force: true });
  fs.renameSync(writing, file);
}
