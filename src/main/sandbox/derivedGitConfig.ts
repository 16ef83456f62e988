import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../workspace/filePaths';
import type { LitPlace } from './litHomeFolders';

/**
 * The ~/.gitconfig a sandboxed command sees: the person's global git settings (~/.gitconfig and
 * git's XDG file, read as git reads them, with git itself) without what holds or fetches a
 * credential. Kept: identity, aliases, core settings and the sections of everyday work (the table
 * below). Dropped: credential helpers, `http.*` (extraHeader carries tokens), `url.*.insteadOf` whose
 * URL carries a user and password or token, signing (the keys stay dark, so `commit.gpgSign` would
 * make every commit fail), programs git would start on its own (`core.fsmonitor`, `core.sshCommand`,
 * `core.askPass`), every section not in the table, and any value that looks like a credential.
 *
 * Includes: an unconditional `include.path` is followed and its settings, derived the same way, are
 * written in its place. An `includeIf` stays, its condition decided by git in the repository as
 * outside; the file it names, when in the home folder, is derived too and lit at its own path, so
 * the condition leads to the derived copy. Includes nest up to git's own depth of 10; a cycle, or a
 * file that cannot be read, is dropped. The derived file says, in comments, what was followed and
 * what dropped (names of settings, never their values).
 */

/** Sections kept whole (git prints section names in lower case), with the keys of theirs that are not. */
const KEPT_SECTIONS: Readonly<Record<string, readonly string[]>> = {
  user: [],
  author: [],
  committer: [],
  alias: [],
  core: ['fsmonitor', 'sshcommand', 'askpass', 'gitproxy', 'hookspath'],
  init: [],
  pull: [],
  push: [],
  fetch: [],
  merge: [],
  mergetool: [],
  rebase: [],
  diff: [],
  difftool: [],
  color: [],
  format: [],
  log: [],
  status: [],
  branch: [],
  advice: [],
  help: [],
  grep: [],
  rerere: [],
  commit: ['gpgsign'],
  tag: ['gpgsign', 'forcesignannotated'],
  gc: [],
  pack: [],
  protocol: [],
  submodule: [],
  feature: [],
  index: [],
  safe: [],
  blame: [],
  column: [],
  interactive: [],
  apply: [],
  am: [],
  transfer: [],
  filter: [],
  lfs: [],
  stash: [],
  worktree: [],
  checkout: [],
  clone: [],
  trailer: [],
  pager: [],
  sequence: [],
  url: [],
};

/** A value that holds a credential: a URL with a user and password (or an http token as its user), a bearer header, known token prefixes. */
const CREDENTIAL_VALUE =
  /[a-z][a-z0-9+.-]*:\/\/[^/\s@:]+:[^/\s@]+@|https?:\/\/[^/\s@]+@|\bauthorization\s*:|\bbearer\s+\S|\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_|\bglpat-|\bxox[abposr]-|\bsk-[A-Za-z0-9_-]{16,}|\bAKIA[0-9A-Z]{16}\b|\bnpm_[A-Za-z0-9]{30,}/i;

interface Entry {
  key: string;
  value: string | undefined;
}

interface DerivedGitConfig {
  /** The derived files, each lit at the path git looks for it. */
  lit: LitPlace[];
  /** Files the derived settings name that commands need to read (the global ignore and attributes files, a commit template). */
  named: string[];
}

/** Git's global files for this home, in the order git reads them (the XDG one first; ~/.gitconfig wins). */
function globalFiles(home: string, env: Readonly<Record<string, string | undefined>>): string[] {
  const xdg = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return [path.join(xdg, 'git', 'config'), path.join(home, '.gitconfig')];
}

/**
 * Writes the derived config (and the derived copies of files an includeIf names) into `folder`,
 * which is the fence's to read and no command's to write, and says where each is lit.
 */
export function deriveGitConfig(
  home: string,
  folder: string,
  env: Readonly<Record<string, string | undefined>> = {},
  options: { includesAtCopies?: boolean } = {},
): DerivedGitConfig {
  fs.rmSync(folder, { recursive: true, force: true });
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const lit: LitPlace[] = [];
  const named = new Set<string>();
  const copies = new Map<string, string>();

  /** The derived text of one file: its kept settings, included files followed, and notes. */
  const derive = (file: string, depth: number, chain: readonly string[]): string[] => {
    const lines: string[] = [];
    const entries = readEntries(file, home);
    if (entries === undefined) return [`# ${file}: not a file that could be read; left out`];
    const dropped = new Set<string>();
    let section: string | undefined;
    for (const { key, value } of entries) {
      const [name, subsection, variable] = splitKey(key);
      if (name === 'include' && variable === 'path' && value !== undefined) {
        const target = includeTarget(value, file, home);
        if (depth >= 10 || chain.includes(target)) {
          lines.push(`# include ${value}: dropped (${depth >= 10 ? 'nested more than 10 deep' : 'it includes itself'})`);
        } else {
          lines.push(`# include ${value}: followed, its settings derived below`, ...derive(target, depth + 1, [...chain, target]));
        }
        section = undefined;
        continue;
      }
      if (name === 'includeif' && variable === 'path' && value !== undefined && subsection !== undefined) {
        const target = includeTarget(value, file, home);
        if (!isInside(target, home)) {
          lines.push(`# includeIf "${subsection}" ${value}: kept; outside the home folder, read as it is`);
        } else if (depth >= 10 || chain.includes(target)) {
          lines.push(`# includeIf "${subsection}" ${value}: dropped (${depth >= 10 ? 'nested more than 10 deep' : 'it includes itself'})`);
          continue;
        } else {
          let copy = copies.get(target);
          if (copy === undefined) {
            copy = path.join(folder, `included-${copies.size + 1}`);
            copies.set(target, copy);
            fs.writeFileSync(
              copy,
              header(target)
                .concat(derive(target, depth + 1, [...chain, target]))
                .join('\n') + '\n',
              { mode: 0o600 },
            );
            lit.push({ source: copy, dest: target });
          }
          lines.push(`# includeIf "${subsection}" ${value}: kept; the file it names is derived the same way`);
        }
        // Absolute: the derived file is read as ~/.gitconfig, not where the include was written.
        const copy = copies.get(target);
        lines.push(`[includeIf ${quoted(subsection)}]`, `\tpath = ${quoted(options.includesAtCopies && copy ? copy : target)}`);
        section = undefined;
        continue;
      }
      if (!keeps(name, subsection, variable, value)) {
        // By name only, and a name that holds a credential (a URL in a subsection) without it.
        dropped.add(subsection !== undefined && CREDENTIAL_VALUE.test(subsection) ? `${name}.(a URL with a credential).${variable}` : key);
        continue;
      }
      const heading = subsection === undefined ? `[${name}]` : `[${name} ${quoted(subsection)}]`;
      if (heading !== section) lines.push(heading);
      section = heading;
      lines.push(value === undefined ? `\t${variable}` : `\t${variable} = ${quoted(value)}`);
      if (name === 'core' && (variable === 'excludesfile' || variable === 'attributesfile') && value) named.add(expand(value, home));
      if (name === 'commit' && variable === 'template' && value) named.add(expand(value, home));
    }
    if (dropped.size > 0) lines.push(`# dropped from ${file}: ${[...dropped].join(', ')}`);
    return lines;
  };

  const body: string[] = [];
  for (const file of globalFiles(home, env)) if (fs.existsSync(file)) body.push(...header(file), ...derive(file, 0, [file]));
  const derived = path.join(folder, 'gitconfig');
  fs.writeFileSync(
    derived,
    [
      '# Derived by Tether for commands in its sandbox from your global git settings: identity, aliases,',
      '# core and everyday settings, without credential helpers, tokens or signing. Your own files stay dark.',
      ...body,
    ].join('\n') + '\n',
    { mode: 0o600 },
  );
  lit.push({ source: derived, dest: path.join(home, '.gitconfig') });
  return { lit, named: [...named] };
}

function header(file: string): string[] {
  return [`# from ${file}`];
}

/** Whether a setting is carried into the derived config. */
function keeps(name: string, subsection: string | undefined, variable: string, value: string | undefined): boolean {
  const notKept = KEPT_SECTIONS[name];
  if (notKept === undefined || notKept.includes(variable)) return false;
  if (value !== undefined && CREDENTIAL_VALUE.test(value)) return false;
  if (subsection !== undefined && CREDENTIAL_VALUE.test(subsection)) return false;
  return true;
}

/** `section.sub.section.key` as git lists it: the subsection is what lies between the first and the last dot. */
function splitKey(key: string): [string, string | undefined, string] {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first === last) return [key.slice(0, first), undefined, key.slice(first + 1)];
  return [key.slice(0, first), key.slice(first + 1, last), key.slice(last + 1)];
}

/** A file's settings in order, as git reads them (without following includes), or undefined when it cannot be read. */
function readEntries(file: string, home: string): Entry[] | undefined {
  let listed: string;
  try {
    // A FIFO or a device would keep git waiting: only a regular file (a link to one included) is read.
    if (!fs.statSync(file).isFile()) return undefined;
    listed = execFileSync('git', ['config', '--file', file, '--no-includes', '--list', '-z'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      // Git reads the global files for itself first (with their includes): it is given none.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HOME: home },
      timeout: 5_000,
    });
  } catch {
    return undefined;
  }
  return listed
    .split('\0')
    .filter(Boolean)
    .map((record) => {
      const newline = record.indexOf('\n');
      return newline < 0 ? { key: record, value: undefined } : { key: record.slice(0, newline), value: record.slice(newline + 1) };
    });
}

/** Where an include's path leads, as git resolves it: `~/` from the home folder, a relative path from the including file's folder. */
function includeTarget(value: string, from: string, home: string): string {
  if (value.startsWith('~/')) return path.join(home, value.slice(2));
  return path.resolve(path.dirname(from), value);
}

function expand(value: string, home: string): string {
  return value.startsWith('~/') ? path.join(home, value.slice(2)) : value;
}

/** A value or subsection in git's config syntax: double quotes, with backslash, quote, newline and tab escaped. */
function quoted(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}
