import { derivedGitRoot, supervisorsRoot } from './fence';
import { pruneProcessFolders } from './processFolders';
import { tempRoot } from './sessionTemp';

/**
 * Removes what Tether processes that are gone left in the data folder's sandbox (processFolders.ts):
 * their profiles' execute-only supervisors and derived ~/.gitconfig, and their project servers'
 * private /tmp. Run when Tether starts; what a process running beside it uses stays. Returns the
 * paths removed, relative to the data folder's sandbox folder.
 */
export function pruneSandboxLeftovers(dataDir: string, now = Date.now()): string[] {
  const places: Array<[string, string, boolean]> = [
    ['supervisor', supervisorsRoot(dataDir), true],
    ['git', derivedGitRoot(dataDir), true],
    // The sessions' own folders there go with their sessions (pruneSessionTemps).
    ['tmp', tempRoot(dataDir), false],
  ];
  return places.flatMap(([name, parent, unownedAreLeftovers]) =>
    pruneProcessFolders(parent, { unownedAreLeftovers, now }).map((entry) => `${name}/${entry}`),
  );
}
