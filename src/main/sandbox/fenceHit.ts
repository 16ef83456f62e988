// The proxy's own matcher, so "the proxy refused a listed domain" agrees with the proxy exactly.
import { matchesDomainPatternWithPort } from '@anthropic-ai/sandbox-runtime/dist/sandbox/domain-pattern.js';
import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { isInside } from '../workspace/filePaths';
import type { EffectiveFence } from './fence';
import { gitMachineryHolding } from './gitFence';
import type { NetworkDenial } from './sandboxRuntime';

/**
 * Which fence a sandboxed command ran into, worked out from what it printed (bubblewrap reports a
 * fenced write as EROFS, EACCES, EPERM or ENOTDIR and a hidden secret as missing or unreadable; no
 * kernel log says more) and from the proxy's own record of the connections it refused.
 */
export interface FenceHit {
  fence: 'write' | 'read' | 'network';
  /** The path or the domain. */
  target: string;
  /** One line for a person and the model: which fence, and why. */
  message: string;
  /** Not this command's doing: a process an earlier command left running connected after that command ended. */
  leftBehind?: boolean;
}

const WRITE_ERRORS =
  /read-only file system|permission denied|operation not permitted|not a directory|EROFS|EACCES|EPERM|ENOTDIR|Errno 30|Errno 13|Errno 1\b/i;
const READ_ERRORS =
  /no such file or directory|permission denied|operation not permitted|not a directory|ENOENT|EACCES|EPERM|Errno 2\b|Errno 13\b/i;
// A path the sandbox covered with an empty read-only file looks like a file that is in the way.
const COVERED_ERRORS = /file exists|not a directory|EEXIST|ENOTDIR/i;
// A protected path is a mount point: renaming over it or removing it is refused as busy (git writes
// its config as config.lock and renames it over: `could not write config file .git/config: Device or
// resource busy`). Only a protected path counts: elsewhere busy means busy.
const PINNED_ERRORS = /device or resource busy|EBUSY/i;
// Quoted paths (node, python, touch, mkdir) count on any line that reports an error; a bare one only
// right before its error (`cat: .env: Permission denied`), so a program's own name is not taken for it.
const QUOTED_PATH = /['"`‘’“”]((?:~|\.{1,2})?[^'"`‘’“”\s]*[/.][^'"`‘’“”\s]*)['"`‘’“”]/g;
// tar puts what it tried before the reason (`tar: ./.env: Cannot open: Permission denied`): that is one error.
const BARE_PATH_BEFORE_ERROR = /(?:^|[\s(])((?:~|\.{1,2})?[^\s:'"`,()]*[/.][^\s:'"`,()]*): (?=((?:Cannot (?:open|stat|read): )?[^:\n]*))/g;
const MAX_LINES = 400;

export function findFenceHits(input: {
  output: string;
  cwd: string;
  fence: EffectiveFence;
  denials: NetworkDenial[];
  home?: string;
}): FenceHit[] {
  const hits: FenceHit[] = [];
  const seen = new Set<string>();
  const add = (hit: FenceHit): void => {
    const key = `${hit.fence}:${hit.target}`;
    if (seen.has(key)) return;
    seen.add(key);
    hits.push(hit);
  };
  for (const denial of input.denials) {
    if (denial.leftBehind) {
      add({
        fence: 'network',
        target: `${denial.host}:${denial.port}`,
        message: `the network fence: a process an earlier command left running tried to reach ${denial.host}:${denial.port} after that command had ended, and was refused (nobody is asked about a command that is over)`,
        leftBehind: true,
      });
      continue;
    }
    const listed = input.fence.allowedDomains.some((entry) => matchesDomainPatternWithPort(denial.host, denial.port, entry));
    add({
      fence: 'network',
      target: denial.host,
      message: listed
        ? `the network fence: ${denial.host} is on this project's allowed domains, but another session with a narrower network fence was running a command at the same time and the proxy is shared; run it again`
        : `the network fence: ${denial.host} is not an allowed domain (${denial.reason}); add it to the project's allowed domains in Settings → Sandbox if commands should reach it`,
    });
  }

  const home = input.home ?? os.homedir();
  const lines = input.output.split('\n');
  for (const line of lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES / 2), ...lines.slice(-MAX_LINES / 2)] : lines) {
    if (![WRITE_ERRORS, READ_ERRORS, COVERED_ERRORS, PINNED_ERRORS].some((errors) => errors.test(line))) continue;
    for (const { candidate, error } of pathsIn(line)) {
      const absolute = candidate.startsWith('~/') ? path.join(home, candidate.slice(2)) : path.resolve(input.cwd, candidate);
      const denied = deniedRead(absolute, input.fence);
      if (denied && READ_ERRORS.test(error)) {
        add({
          fence: 'read',
          target: shown(absolute, input.fence.workspace),
          message: `the read fence: ${shown(absolute, input.fence.workspace)} is a secret commands may not read (${shown(denied, input.fence.workspace)})`,
        });
        continue;
      }
      // Git's machinery as it is now: what appeared in .git since the session began is fenced too.
      const protectedBy =
        input.fence.denyWrite.find((folder) => isInside(absolute, folder)) ?? gitMachineryHolding(absolute, input.fence.workspace);
      if (protectedBy && [WRITE_ERRORS, COVERED_ERRORS, PINNED_ERRORS].some((errors) => errors.test(error))) {
        add({
          fence: 'write',
          target: shown(absolute, input.fence.workspace),
          message: `the write fence: ${shown(protectedBy, input.fence.workspace)} is protected from commands`,
        });
      } else if (
        !protectedBy &&
        WRITE_ERRORS.test(error) &&
        !input.fence.allowWrite.some((folder) => isInside(absolute, folder)) &&
        !isSystemPath(absolute)
      ) {
        add({
          fence: 'write',
          target: absolute,
          message: `the write fence: ${absolute} is outside the workspace and the other places commands may write (/tmp and Tether's toolchain caches)`,
        });
      }
    }
  }
  return hits;
}

/** One sentence naming every fence hit, for the dialog and the model. */
export function describeFenceHits(hits: FenceHit[]): string {
  return hits.map((hit) => hit.message).join('; ');
}

/** The paths a line of output names, each with the error text that goes with it. */
function pathsIn(line: string): Array<{ candidate: string; error: string }> {
  const found: Array<{ candidate: string; error: string }> = [];
  for (const match of line.matchAll(QUOTED_PATH)) if (match[1]) found.push({ candidate: match[1], error: line });
  for (const match of line.matchAll(BARE_PATH_BEFORE_ERROR)) {
    if (match[1]) found.push({ candidate: match[1].replace(/[.,;]+$/, ''), error: match[2] ?? '' });
  }
  return found.filter(({ candidate }) => candidate.length > 1 && !/^\w+:\/\//.test(candidate));
}

function deniedRead(absolute: string, fence: EffectiveFence): string | undefined {
  for (const denied of fence.denyRead) {
    if (denied.includes('*')) {
      if (picomatch.isMatch(absolute, denied, { dot: true })) return denied;
    } else if (isInside(absolute, denied)) {
      return denied;
    }
  }
  // A secret file deeper in the workspace (`.env*` at any depth).
  if (isInside(absolute, fence.workspace)) {
    const named = fence.denyReadNamed.find((name) => picomatch.isMatch(path.basename(absolute), name, { dot: true, nocase: true }));
    if (named) return path.join(fence.workspace, '**', named);
  }
  return undefined;
}

/** Paths every process may fail to write for its own reasons (devices, /proc); never the fence's doing. */
function isSystemPath(absolute: string): boolean {
  return ['/dev', '/proc', '/sys'].some((folder) => isInside(absolute, folder));
}

function shown(absolute: string, workspace: string): string {
  if (!isInside(absolute, workspace)) return absolute;
  return path.relative(workspace, absolute) || '.';
}
