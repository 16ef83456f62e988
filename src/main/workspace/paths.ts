import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { canonicalPath, isInside, SymlinkLoopError } from './filePaths';
import { ToolError } from '../../shared/toolError';
import type { Workspace } from './workspace';

/**
 * Opens a folder as the workspace: the one place every tool path goes through.
 *
 * A path is canonicalised (filePaths.ts, canonicalPath): `..` is folded first, then the longest
 * existing prefix is resolved through its symbolic links (a dangling link is followed to where it
 * points, so creating a file through it cannot land outside), and the rest is appended. Only the
 * canonical result is checked and returned, so what was checked is exactly what the tool opens.
 */
export function openWorkspace(root: string): Workspace {
  let canonicalRoot: string;
  try {
    canonicalRoot = fs.realpathSync.native(path.resolve(root));
  } catch (error) {
    throw new Error(`Cannot open workspace ${root}: ${(error as Error).message}`);
  }
  if (!fs.statSync(canonicalRoot).isDirectory()) {
    throw new Error(`Cannot open workspace ${root}: it is not a folder.`);
  }
  const inside = (candidate: string) => isInside(candidate, canonicalRoot);
  const allowed = `Only paths inside ${canonicalRoot} are allowed; give a path relative to it.`;

  return {
    root: canonicalRoot,

    resolve(given: string): string {
      const shown = JSON.stringify(given);
      if (given.includes('\0')) {
        throw new ToolError(`Path ${shown} contains a NUL byte, which no file name can hold. ${allowed}`);
      }
      const tilde = /^~([^/\\]*)/.exec(given);
      if (tilde) {
        const home = tilde[1] ? `the home folder of user "${tilde[1]}"` : `the home folder (${os.homedir()})`;
        throw new ToolError(
          `Path ${shown} starts with "~", which would resolve into ${home}, outside the workspace; "~" is not expanded. ` +
            `${allowed} (For a file whose name starts with "~", write "./${given}".)`,
        );
      }
      const lexical = path.resolve(canonicalRoot, given);
      let canonical: string;
      try {
        canonical = canonicalPath(lexical);
      } catch (error) {
        if (!(error instanceof SymlinkLoopError)) throw error;
        throw new ToolError(`Path ${shown} goes through too many symbolic links (a loop?) at ${error.at}; use a path without the loop.`);
      }
      if (!inside(canonical)) {
        const how = inside(lexical) ? ' through a symbolic link' : '';
        throw new ToolError(`Path ${shown} resolves to ${canonical}${how}, which is outside the workspace. ${allowed}`);
      }
      return canonical;
    },

    relative(absolutePath: string): string {
      const relative = path.relative(canonicalRoot, absolutePath);
      return relative === '' ? '.' : relative.split(path.sep).join('/');
    },
  };
}
