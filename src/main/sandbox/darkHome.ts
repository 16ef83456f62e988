import { destinationOf, type BwrapOption as Option } from './bubblewrapOptions';
import { settingsInInstallations } from './settingsInInstallations';
import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../workspace/filePaths';
import { deriveGitConfig } from './derivedGitConfig';
import { deriveNpmrc } from './derivedNpmrc';
import { derivePipConf } from './derivedPipConf';
import { litHomePlaces, type LitPlace } from './litHomeFolders';

/**
 * The home folder is dark inside the fence. A list of secrets is always one member short (other
 * agents' credentials, keyrings, browser profiles, histories, every tool's own rc file), so the
 * fence turns the other way round: an empty, read-only tmpfs is mounted over the person's home, and
 * only what work needs is bound back, read-only: the toolchains' installations (litHomeFolders.ts),
 * a derived ~/.gitconfig (derivedGitConfig.ts), and the fence's own places that lie in the home
 * folder (the workspace, Tether's caches), which the runtime binds on top as before. Everything else
 * there is absent, not unreadable: `ls ~` shows only what is lit, and no name leaks.
 *
 * Other people's homes (/home, and /root when it is not the person's) are covered the same way,
 * and so is every other Tether data folder there, since they are all in some home.
 *
 * A link in a lit folder is followed inside the fence, where its target is dark: it leads nowhere. A
 * lit folder that is itself a link into the dark is not lit (litHomePlaces).
 */

export interface DarkHome {
  /** Covered whole, parents first: other homes, then the person's. */
  hidden: string[];
  /** Bound back read-only, outer first. */
  lit: LitPlace[];
  /** Settings files inside what is lit that may hold credentials (settingsInInstallations.ts): dark again. */
  masked: string[];
  /** The fence's places under a hidden folder that commands must still see (the runtime binds them). */
  visible: string[];
  /** Where the derived git config is (its ~/.gitconfig is `gitconfig` there). */
  derivedFolder: string;
}

interface DarkHomeInput {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  /** What the person lit for the project (Settings → Sandbox), checked when kept. */
  personLit: readonly string[];
  /** Tether's folder for the derived git config, out of every command's reach. */
  derivedFolder: string;
  /** The fence's own places (the workspace, caches, what the person made writable). */
  visible: readonly string[];
  /** Where people's homes are: /home and /root on Linux, /Users and /var/root on macOS. */
  platform?: NodeJS.Platform;
}

/** The folders that hold people's homes, by platform. */
const HOMES: Readonly<Partial<Record<NodeJS.Platform, readonly string[]>>> = {
  linux: ['/home', '/root'],
  darwin: ['/Users', '/var/root'],
};

/** Works out what is dark and what is lit for one profile, writing the derived git config. */
export function darkHomeFor(input: DarkHomeInput): DarkHome {
  const home = path.resolve(input.home);
  const platform = input.platform ?? process.platform;
  // Seatbelt cannot put the derived copy where git looks for it: includeIf names the copy itself.
  const git = deriveGitConfig(home, input.derivedFolder, input.env, { includesAtCopies: platform === 'darwin' });
  const named = git.named.filter((file) => isInside(file, home));
  const derived = [deriveNpmrc(home, input.derivedFolder), derivePipConf(home, input.derivedFolder)].filter(
    (place): place is LitPlace => place !== undefined,
  );
  const lit = [...litHomePlaces(home, input.env, [...input.personLit, ...named]), ...git.lit, ...derived];
  const [people = '/home', root = '/root'] = HOMES[platform] ?? [];
  const others = [people, root].filter((folder) => !isInside(home, folder) || folder === people).filter(isDirectory);
  // A home that is the root folder (a service account's) cannot be covered: the fence would cover everything.
  const coverable = home !== path.parse(home).root && isDirectory(home);
  const hidden = [...others.filter((folder) => folder !== home), ...(coverable ? [home] : [])];
  const masked = settingsInInstallations(lit.filter((place) => !isInside(place.source, input.derivedFolder)).map((place) => place.dest));
  return { hidden: [...new Set(hidden)], lit, masked, visible: [...input.visible], derivedFolder: input.derivedFolder };
}

/**
 * The runtime's options with the home dark: after `insertAt` (the private /tmp's mounts), each
 * hidden folder gets a tmpfs and the lit places are bound back; the runtime's own mounts inside a
 * hidden folder are kept only under a visible place (its masks over ~/.ssh and the like would
 * otherwise show an empty folder where nothing should be, and a read-only bind of a dark file would
 * show it); and once everything is mounted, each tmpfs is made read-only, so a command's write into
 * the home folder fails at the fence as before instead of vanishing into memory.
 */
export function withDarkHome(options: readonly Option[], insertAt: number, dark: DarkHome): Option[] {
  if (dark.hidden.length === 0) return [...options];
  const seen = [...dark.visible, ...dark.lit.map((place) => place.dest)];
  const derivedAt = dark.lit.filter((place) => isInside(place.source, dark.derivedFolder)).map((place) => place.dest);
  const dropped = (option: Option): boolean => {
    const dest = destinationOf(option);
    if (dest === undefined || !dark.hidden.some((folder) => isInside(dest, folder))) return false;
    // The runtime's mask over a store Tether lights a derived copy of (~/.npmrc) would hide the copy.
    if (derivedAt.includes(dest)) return true;
    return !seen.some((place) => isInside(dest, place));
  };
  const darkening: Option[] = [
    ...dark.hidden.map((folder): Option => ['--tmpfs', folder]),
    ...dark.lit.map((place): Option => ['--ro-bind', place.source, place.dest]),
    // A file cannot be made absent inside a bound folder: it is read as empty.
    ...dark.masked.map((file): Option => ['--ro-bind', '/dev/null', file]),
  ];
  const before = options.slice(0, insertAt);
  const after = options.slice(insertAt).filter((option) => !dropped(option));
  return [...before, ...darkening, ...after, ...dark.hidden.map((folder): Option => ['--remount-ro', folder])];
}

function isDirectory(folder: string): boolean {
  try {
    return fs.statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
