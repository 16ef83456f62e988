import fs from 'node:fs';
import path from 'node:path';
import { lifecycleScriptChange } from '../workspace/autorunFiles';
import { configuredHooksFolder } from '../workspace/configuredHooks';
import { isInside } from '../workspace/filePaths';

/**
 * Why a write to a package.json asks in every mode: it adds or changes a script that npm, pnpm or
 * Yarn run by themselves on the person's next install or publish, outside any sandbox. Undefined for
 * any other file, and for an ordinary edit (a dependency, a version, the test script).
 */
export function lifecycleQuestion(
  canonical: string,
  shown: string,
  after: ((current: string | null) => string | undefined) | undefined,
): string | undefined {
  if (path.basename(canonical) !== 'package.json' || !after) return undefined;
  const current = readText(canonical);
  if (current === undefined) return undefined;
  const next = after(current);
  if (next === undefined) return undefined;
  const scripts = lifecycleScriptChange(current, next);
  if (scripts.length === 0) return undefined;
  const named = scripts.map((name) => `"${name}"`).join(', ');
  return `This change to ${shown} adds or changes the lifecycle script${scripts.length === 1 ? '' : 's'} ${named}, which npm, pnpm and Yarn run by themselves on your next install (outside any sandbox), so it asks in every mode.`;
}

/**
 * Why a write into the hooks folder the person's git config names inside the workspace
 * (`core.hooksPath = .githooks`) asks in every mode: git runs what is there on the person's next
 * commit, checkout or push, outside any sandbox. Undefined for any other path.
 */
export function configuredHooksQuestion(canonical: string, shown: string, workspace: string): string | undefined {
  const hooks = configuredHooksFolder(workspace);
  if (!hooks || !isInside(canonical, hooks)) return undefined;
  return `${shown} is in the folder your git runs hooks from (core.hooksPath): git would run it on your next commit, checkout or push, outside any sandbox, so it asks in every mode.`;
}

/** The file's text, null when there is none, undefined when it cannot be read (the tool will say why). */
function readText(file: string): string | null | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : undefined;
  }
}
