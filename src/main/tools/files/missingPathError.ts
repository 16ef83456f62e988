import fs from 'node:fs';
import path from 'node:path';
import type { Workspace } from '../../workspace/workspace';
import { ToolError } from '../defineTool';

const MAX_SUGGESTIONS = 5;

/**
 * The error for a path that does not exist: it names the path, the nearest folder that does
 * exist, and names in that folder close to the one asked for, so the model's next call can be
 * the right one instead of another guess.
 */
export function missingPathError(tool: string, workspace: Workspace, absolute: string, hint = ''): ToolError {
  const relative = workspace.relative(absolute);
  let folder = path.dirname(absolute);
  while (folder.length > workspace.root.length && !isDirectory(folder)) folder = path.dirname(folder);
  const folderName = workspace.relative(folder);
  const suggestions = folder === path.dirname(absolute) ? similarNames(folder, path.basename(absolute)) : [];
  const prefix = folderName === '.' ? '' : `${folderName}/`;
  const similar = suggestions.length ? ` Similar names there: ${suggestions.map((name) => prefix + name).join(', ')}.` : '';
  const where = folderName === '.' ? 'the workspace root' : folderName;
  return new ToolError(
    `${tool}: ${relative} does not exist.${similar} Use list_files on ${where} to see what is there.${hint ? ` ${hint}` : ''}`,
  );
}

function isDirectory(candidate: string): boolean {
  try {
    return fs.statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}

function similarNames(folder: string, wanted: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return [];
  }
  const lower = wanted.toLowerCase();
  const stem = stemOf(lower);
  return names
    .map((name) => ({ name, score: closeness(name.toLowerCase(), lower, stem) }))
    .filter((candidate) => candidate.score < Infinity)
    .sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : 1))
    .slice(0, MAX_SUGGESTIONS)
    .map((candidate) => candidate.name);
}

/** Lower is closer; Infinity means not worth suggesting. */
function closeness(name: string, wanted: string, wantedStem: string): number {
  if (name === wanted) return 0;
  if (stemOf(name) === wantedStem) return 1;
  if (Math.abs(name.length - wanted.length) > 2 || wanted.length > 64) return Infinity;
  const distance = editDistance(name, wanted);
  return distance <= 2 ? 1 + distance : Infinity;
}

function stemOf(name: string): string {
  const dot = name.indexOf('.', 1);
  return dot === -1 ? name : name.slice(0, dot);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
