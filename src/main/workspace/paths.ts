import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { ToolError } from './toolError';
import type { Workspace } from './workspace';

/** Linux gives up after 40 links in one lookup; so do we, instead of looping forever. */
const MAX_SYMLINK_HOPS = 40;

/**
 * Opens a folder as the workspace: the one place every tool path goes through.
 *
 * A path is canonicalised the way the operating system would open it: `..` is folded first, then
 * the longest existing prefix is resolved through its symbolic links (a dangling link is followed
 * to where it points, so creating a file through it cannot land outside), and the rest is
 * appended. Only the canonical result is checked and returned, so what was checked is exactly
 * what the tool opens.
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
  const rootWithSep = canonicalRoot.endsWith(path.sep) ? canonicalRoot : canonicalRoot + path.sep;
  const isInside = (candidate: string) => candidate === canonicalRoot || candidate.startsWith(rootWithSep);
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
      const canonical = canonicalize(lexical, given);
      if (!isInside(canonical)) {
        const how = isInside(lexical) ? ' through a symbolic link' : '';
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

function canonicalize(absolute: string, given: string, hops = 0): string {
  try {
    return fs.realpathSync.native(absolute);
  } catch {
    // Some part is missing, dangling or unreadable: find out which below.
  }
  const rest: string[] = [];
  let prefix = absolute;
  let stat: fs.Stats | undefined;
  for (;;) {
    try {
      stat = fs.lstatSync(prefix);
      break;
    } catch {
      const parent = path.dirname(prefix);
      if (parent === prefix) break;
      rest.unshift(path.basename(prefix));
      prefix = parent;
    }
  }
  if (stat?.isSymbolicLink()) {
    if (hops >= MAX_SYMLINK_HOPS) {
      throw new ToolError(`Path ${JSON.stringify(given)} goes through too many symbolic links (a loop?) at ${prefix}; use a path without the loop.`);
    }
    // A dangling link: follow it by hand so the check sees where a write through it would land. A
    // relative target counts from the link's real folder, as the kernel counts it.
    const target = path.resolve(fs.realpathSync.native(path.dirname(prefix)), fs.readlinkSync(prefix));
    return canonicalize(path.join(target, ...rest), given, hops + 1);
  }
  let base = prefix;
  try {
    base = fs.realpathSync.native(prefix);
  } catch {
    // Unreadable prefix (permissions): keep it lexical; opening it will fail with a clear error.
  }
  return path.join(base, ...rest);
}
