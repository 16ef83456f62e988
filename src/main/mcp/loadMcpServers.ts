import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectSettingsPath } from '../settings/settingsFile';
import { readAppSettings, settingsFile, type AppSettings } from '../settings/appSettings';
import { mcpServerRefusal, readManagedPolicy, type ManagedPolicy } from '../settings/managedPolicy';
import { isStdio, McpConfigError, parseMcpConfigText, parseMcpServers, type McpServerEntry } from './mcpServerConfig';
import type { McpServerSource, McpServerSpec } from './mcpServerSpec';

/**
 * Where servers come from: the person's settings (`<dataDir>/settings.json` → "mcpServers"), the
 * project's `.tether/settings.json` → "mcpServers" (started only once the folder is trusted: a cloned
 * repository must not be able to run a program just by being opened), and a file named with
 * `tether run --mcp-config`. By name, a CLI server wins over a project one, which wins over the person's.
 */

export interface SessionServersInput {
  dataDir: string;
  workspace: string;
  projectTrusted: boolean;
  /** settings.json as the run read it, so it is read once. */
  settings?: AppSettings;
  /** Servers from `--mcp-config`. */
  extra?: McpServerSpec[];
}

/** Every server a session in `workspace` may use (untrusted project servers included, marked). */
export function sessionMcpServers(input: SessionServersInput): McpServerSpec[] {
  const byName = new Map<string, McpServerSpec>();
  for (const spec of userMcpServers(input.dataDir, input.settings)) byName.set(spec.name, spec);
  for (const spec of projectMcpServers(input.workspace, input.projectTrusted)) {
    // An untrusted project cannot shadow the person's own server of the same name.
    if (!spec.untrusted || !byName.has(spec.name)) byName.set(spec.name, spec);
  }
  for (const spec of input.extra ?? []) byName.set(spec.name, spec);
  return withinManagedPolicy([...byName.values()], readManagedPolicy());
}

/**
 * A server the managed policy does not list is kept on the list, never started, with why. Every list
 * of servers is made through this (the session's, and Settings' for its Start button), and the
 * connection checks the policy again before it starts a process.
 */
function withinManagedPolicy(specs: McpServerSpec[], policy: ManagedPolicy | undefined = readManagedPolicy()): McpServerSpec[] {
  return specs.map((spec) => {
    const refusal = mcpServerRefusal(policy, spec.name);
    return refusal && !spec.problem ? { ...spec, problem: refusal } : spec;
  });
}

/**
 * The folder the person's own servers (settings and `--mcp-config`) start in when their entry names
 * none: one of their own in Tether's data, never a workspace. In a workspace `python -m server`
 * would import a `server.py` the agent wrote there, and `npx x` run its `node_modules/.bin/x`,
 * outside any sandbox.
 */
export function mcpServerFolder(dataDir: string): string {
  return path.join(dataDir, 'mcp-servers');
}

/** The person's own servers, from `mcpServers` in settings.json (read here unless the caller has it already). */
export function userMcpServers(dataDir: string, settings: AppSettings = readAppSettings(dataDir)): McpServerSpec[] {
  const file = settingsFile(dataDir);
  const specs = toSpecs(parseMcpServers(settings['mcpServers'], file), {
    source: 'user',
    file,
    baseDir: os.homedir(),
    defaultCwd: mcpServerFolder(dataDir),
  });
  return withinManagedPolicy(specs);
}

export function projectMcpServers(workspace: string, trusted: boolean): McpServerSpec[] {
  const file = projectSettingsPath(workspace);
  const text = readIfPresent(file);
  if (text === undefined) return [];
  const specs = toSpecs(parseMcpConfigText(text, file), { source: 'project', file, baseDir: workspace, defaultCwd: workspace, workspace });
  return withinManagedPolicy(specs).map((spec) =>
    trusted
      ? spec
      : {
          ...spec,
          untrusted: true,
          problem:
            spec.problem ??
            `Not started: ${workspace} is not trusted, and a project's servers run only in a trusted folder. Trust the folder to start it.`,
        },
  );
}

/** A file named on the command line: it must exist, and every server in it must be usable. Its servers start in `startIn` unless an entry names a cwd. */
export function readMcpConfigFile(file: string, startIn: string): McpServerSpec[] {
  const absolute = path.resolve(file);
  let text: string;
  try {
    text = fs.readFileSync(absolute, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new McpConfigError(`The MCP config ${absolute} does not exist; check the path given to --mcp-config.`);
    if (code === 'EISDIR') throw new McpConfigError(`The MCP config ${absolute} is a folder; name the JSON file itself.`);
    throw new McpConfigError(`The MCP config ${absolute} cannot be read (${(error as Error).message}).`);
  }
  const specs = toSpecs(parseMcpConfigText(text, absolute, { bare: true }), {
    source: 'cli',
    file: absolute,
    baseDir: path.dirname(absolute),
    defaultCwd: startIn,
  });
  const bad = specs.filter((spec) => spec.problem);
  if (bad.length > 0) throw new McpConfigError(bad.map((spec) => spec.problem).join('\n'));
  if (specs.length === 0)
    throw new McpConfigError(`The MCP config ${absolute} names no servers; expected {"mcpServers": {"name": {"command": "..."}}}.`);
  return specs;
}

interface SpecContext {
  source: McpServerSource;
  file: string;
  /** A relative `cwd` is resolved against this folder. */
  baseDir: string;
  defaultCwd?: string;
  workspace?: string;
}

function toSpecs(entries: McpServerEntry[], context: SpecContext): McpServerSpec[] {
  return entries.map((entry): McpServerSpec => {
    const id = context.source === 'project' ? `project:${context.workspace}:${entry.name}` : `${context.source}:${entry.name}`;
    const base: McpServerSpec = {
      id,
      name: entry.name,
      source: context.source,
      file: context.file,
      ...(context.workspace ? { workspace: context.workspace } : {}),
      ...(context.defaultCwd ? { defaultCwd: context.defaultCwd } : {}),
    };
    if ('error' in entry) return { ...base, problem: entry.error };
    const config =
      isStdio(entry.config) && entry.config.cwd ? { ...entry.config, cwd: path.resolve(context.baseDir, entry.config.cwd) } : entry.config;
    return { ...base, config };
  });
}

function readIfPresent(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new McpConfigError(`The settings file ${file} cannot be read (${(error as Error).message}); check its permissions.`);
  }
}
