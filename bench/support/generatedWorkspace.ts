import fs from 'node:fs';
import path from 'node:path';

/**
 * The workspace the snapshot and checkpoint benchmarks time: 100 folders of 100 TypeScript files
 * (30 lines each), and an ignored node_modules/ of 2,000 files that a snapshot must skip.
 */

const FOLDERS = 100;
const FILES_PER_FOLDER = 100;
export const IGNORED_FILES = 2000;

export interface GeneratedWorkspace {
  root: string;
  /** How many tracked files it holds. */
  fileCount: number;
  /** The path of tracked file `index` (0 to fileCount - 1). */
  filePath(index: number): string;
}

function fileContent(index: number): string {
  const lines: string[] = [];
  for (let line = 0; line < 30; line++) lines.push(`export const value${index}_${line} = ${(index * 31 + line * 17) % 997};`);
  return `${lines.join('\n')}\n`;
}

export function generateWorkspace(root: string): GeneratedWorkspace {
  const filePath = (index: number) => path.join(root, `pkg${Math.floor(index / FILES_PER_FOLDER)}`, `file${index % FILES_PER_FOLDER}.ts`);
  let fileCount = 0;
  for (let folder = 0; folder < FOLDERS; folder++) {
    fs.mkdirSync(path.join(root, `pkg${folder}`), { recursive: true });
    for (let file = 0; file < FILES_PER_FOLDER; file++) fs.writeFileSync(filePath(fileCount), fileContent(fileCount++));
  }
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n');
  fs.mkdirSync(path.join(root, 'node_modules', 'dep'), { recursive: true });
  for (let i = 0; i < IGNORED_FILES; i++) fs.writeFileSync(path.join(root, 'node_modules', 'dep', `f${i}.js`), `module.exports = ${i};\n`);
  return { root, fileCount, filePath };
}
