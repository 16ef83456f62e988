import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the data the tests read lives: inside the repository, so a clone with nothing beside it
 * passes its own suite. Each folder's README.md says where its files came from and their licence.
 */

export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** Real model streams recorded by other projects (test/fixtures/recorded/README.md). */
export const recordedStreamsDir = path.join(repoRoot, 'test/fixtures/recorded');

/**
 * One case file of test/cases/data, parsed. A missing or empty file fails loudly: a table test
 * over no cases would pass without testing anything.
 */
export function readCaseFile<T>(fileName: string, root = repoRoot): { cases: T[] } & Record<string, unknown> {
  const file = path.join(root, 'test/cases/data', fileName);
  if (!fs.existsSync(file)) {
    throw new Error(
      `The case file ${path.relative(root, file)} is missing from the repository; restore it from git (see test/cases/data/README.md).`,
    );
  }
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { cases?: unknown };
  if (!Array.isArray(data.cases) || data.cases.length === 0) throw new Error(`${path.relative(root, file)} holds no cases.`);
  return data as { cases: T[] } & Record<string, unknown>;
}
