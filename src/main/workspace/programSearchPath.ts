import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canonicalPath, isInside } from './filePaths';

/**
 * Where Tether looks up the programs it starts itself, outside any sandbox: git for snapshots,
 * ripgrep, bwrap and socat, `which` inside the sandbox library, an MCP server's command, a hook's
 * shell. A PATH entry a command can write to would let the agent plant a program there (`git`, `bwrap`)
 * that Tether then runs with the person's full access:
 *   - an empty or relative entry (`::`, `.`, `node_modules/.bin`) resolves against the folder the
 *     program starts in, which is often the workspace;
 *   - an absolute entry inside a workspace (direnv's `layout node` adds the project's
 *     `node_modules/.bin`), or inside the folder Tether was started in.
 * So at start the process's PATH loses the first kind and the entries inside the folder it was started
 * in, and each workspace a session works in takes its entries out too. Commands the agent runs keep
 * the person's PATH as it was (`commandSearchPath`): inside the fence it can plant nothing that runs
 * outside it.
 */

let personPath: string | undefined;
/** What Tether last set process.env.PATH to: a PATH that differs was set since by someone else (a test, an embedder), and is the person's. */
let guardedPath: string | undefined;

/** The person's PATH minus what a workspace could plant a program in. */
export function trustedSearchPath(value: string | undefined, avoid: readonly string[]): string {
  const avoided = avoid.map((folder) => canonicalPath(folder));
  return (value ?? '')
    .split(path.delimiter)
    .filter((entry) => entry !== '' && path.isAbsolute(entry))
    .filter((entry) => !avoided.some((folder) => isInside(canonicalPath(entry), folder)))
    .join(path.delimiter);
}

/**
 * The folder Tether was started in, when it is a project rather than a place that holds the person's
 * own tools: not the home folder, nor a folder above it, nor the root.
 */
export function startFolderToAvoid(cwd: string, home: string = os.homedir()): string | undefined {
  const folder = canonicalPath(cwd);
  const homeFolder = canonicalPath(home);
  if (folder === path.parse(folder).root || isInside(homeFolder, folder)) return undefined;
  return folder;
}

/** At start, before anything is spawned: the process's PATH becomes the trusted one; the person's is kept for commands. */
export function guardProgramSearchPath(cwd: string = process.cwd()): void {
  personPath ??= process.env.PATH ?? '';
  const start = startFolderToAvoid(cwd);
  process.env.PATH = guardedPath = trustedSearchPath(process.env.PATH, start ? [start] : []);
}

/** A session works in `workspace`: no program Tether starts is found inside it from now on. */
export function avoidInProgramSearchPath(workspace: string): void {
  if (process.env.PATH === undefined) return;
  if (process.env.PATH !== guardedPath) personPath = process.env.PATH;
  const trusted = trustedSearchPath(process.env.PATH, [workspace]);
  if (trusted !== process.env.PATH) process.env.PATH = trusted;
  guardedPath = process.env.PATH;
}

/** The environment with the PATH the agent's commands (and hooks) get: the person's, as it was before Tether guarded its own. */
export function withCommandSearchPath(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (personPath === undefined || (env === process.env && env.PATH !== guardedPath)) return env;
  return { ...env, PATH: personPath };
}

/** Where `name` is on the PATH Tether starts its own programs from, as an absolute path; undefined when it is not there. */
export function findTrustedProgram(name: string): string | undefined {
  for (const folder of trustedSearchPath(process.env.PATH, []).split(path.delimiter)) {
    if (!folder) continue;
    const candidate = path.join(folder, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
