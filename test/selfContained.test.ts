import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCaseFile, repoRoot } from './support/testData';

/**
 * A clone of the repository with nothing beside it is all a new user has. These checks run on such a
 * clone, made from the repository's HEAD into an empty temporary folder: every tracked file's
 * references stay inside it, and the data the tests read is committed, not merely present here.
 */

/**
 * `../`-paths that leave the repository on purpose: what a hostile model asks for, which Tether must
 * refuse, and what a planted repository's config names inside a test's temporary workspace.
 */
const DELIBERATE_ESCAPES: Record<string, string[]> = {
  'test/agentLoop.test.ts': ['../../etc/passwd'],
  'test/plantedRepositories.test.ts': ['../../extra.cfg'],
  // A planted .git/commondir naming a folder outside the workspace, which the fence must quarantine.
  'test/fenceFitsWork.test.ts': ['../../elsewhere'],
  // Imports inside the made-up source trees the layer check is tried on, relative to those trees' files.
  'test/layers.test.ts': [
    '../../shared/contract',
    '../../ui/Icon',
    '../../stores/store',
    '../../../shared/contract',
    '../../app/App',
    '../../../main/core',
    '../../../test/support/helper',
    '../../src/main/tools/execute',
    '../../src/main/terminal/pty',
  ],
};

/** The data folders the suites read, each with its own README.md saying where the files came from. */
const DATA_FOLDERS = ['test/cases/data', 'test/fixtures/recorded'];

// A relative path written in a file: one or more `../` and then a name, not inside a longer word or path.
const RELATIVE_PATH = /(?<![\w./-])((?:\.\.\/)+[\w@.-]+(?:\/[\w@.*-]+)*)/g;
const MARKDOWN_LINK = /\]\(([^)\s]+)\)/g;

let parent = '';
let clone = '';
let tracked: string[] = [];

beforeAll(() => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-clone-'));
  clone = path.join(parent, 'tether');
  try {
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', repoRoot, clone], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(
      `Could not clone ${repoRoot} (the suite runs from a git checkout): ${String((error as { stderr?: Buffer }).stderr ?? error)}`,
    );
  }
  // This file is left out of the scans: it has to write down the kinds of path it looks for.
  const self = path.relative(repoRoot, import.meta.filename);
  tracked = execFileSync('git', ['ls-files', '-z'], { cwd: clone, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '' && file !== self);
  // Nothing beside the clone: the folder it sits in holds only the clone.
  expect(fs.readdirSync(parent)).toEqual(['tether']);
});
afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

function textOf(file: string): string | undefined {
  const full = path.join(clone, file);
  if (!fs.statSync(full).isFile()) return undefined;
  const bytes = fs.readFileSync(full);
  return bytes.includes(0) ? undefined : bytes.toString('utf8');
}

function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Whether a path written in `file` names something in the clone, the way imports and links resolve it. */
function existsFrom(file: string, reference: string): boolean {
  const target = path.resolve(path.dirname(path.join(clone, file)), reference.split('#')[0]!);
  return ['', '.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts', '/index.ts'].some((suffix) => fs.existsSync(target + suffix));
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

describe('a clone with nothing beside it', () => {
  it('has no tracked file whose relative paths lead out of the repository', () => {
    const escapes: string[] = [];
    for (const file of tracked) {
      const text = textOf(file);
      if (text === undefined) continue;
      for (const match of text.matchAll(RELATIVE_PATH)) {
        const reference = match[1]!;
        if (DELIBERATE_ESCAPES[file]?.includes(reference)) continue;
        const target = path.resolve(path.dirname(path.join(clone, file)), reference);
        if (!isInside(clone, target)) escapes.push(`${file}:${lineOf(text, match.index)} ${reference}`);
      }
    }
    expect(escapes).toEqual([]);
  });

  it('has no tracked file naming what sits beside the checkout it was cloned from', () => {
    // Whatever is beside the real checkout (a shared folder, another project) is exactly what a clone
    // lacks. A path like `path.resolve(root, '../shared/x')` resolves from the root, not from the file,
    // so it is caught by the name it reaches for: any `../<neighbour>` that names nothing in the clone.
    const checkoutParent = path.dirname(repoRoot);
    const neighbours = fs.readdirSync(checkoutParent).filter((name) => path.join(checkoutParent, name) !== repoRoot);
    const found: string[] = [];
    for (const file of tracked) {
      const text = textOf(file);
      if (text === undefined) continue;
      for (const name of neighbours) {
        if (text.includes(path.join(checkoutParent, name))) found.push(`${file}: the absolute path ${path.join(checkoutParent, name)}`);
      }
      for (const match of text.matchAll(RELATIVE_PATH)) {
        const reference = match[1]!;
        if (DELIBERATE_ESCAPES[file]?.includes(reference)) continue;
        const name = reference.replace(/^(\.\.\/)+/, '').split('/')[0]!;
        if (neighbours.includes(name) && !existsFrom(file, reference)) found.push(`${file}:${lineOf(text, match.index)} ${reference}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('names no file that exists only beside the checkout it was cloned from', () => {
    // "see DESIGN.md section 5" sends a reader to a file a clone does not have, as surely as a link.
    const checkoutParent = path.dirname(repoRoot);
    // This file is left out of `tracked` (it names the kinds of path it looks for), not out of the repository.
    const ownNames = new Set([...tracked, path.relative(repoRoot, import.meta.filename)].map((file) => path.basename(file)));
    const outsideNames = new Set<string>();
    for (const name of fs.readdirSync(checkoutParent)) {
      const neighbour = path.join(checkoutParent, name);
      // Dot-folders beside a checkout are tools' caches, not something the repository could mean.
      // Nor is this test's own clone, when the checkout sits in the temporary folder it makes it in.
      if (neighbour === repoRoot || neighbour === parent || name.startsWith('.')) continue;
      for (const file of filesUnder(neighbour, 3)) {
        const base = path.basename(file);
        if (/^[\w.-]{6,}\.[a-z]{2,5}$/i.test(base) && !ownNames.has(base)) outsideNames.add(base);
      }
    }
    const found: string[] = [];
    for (const file of tracked) {
      const text = textOf(file);
      if (text === undefined) continue;
      for (const name of outsideNames) {
        const at = text.search(new RegExp(`(?<![\\w.-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`));
        if (at >= 0) found.push(`${file}:${lineOf(text, at)} ${name}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('has every relative link of its Markdown pointing at a file it holds', () => {
    const broken: string[] = [];
    for (const file of tracked.filter((name) => name.endsWith('.md'))) {
      const text = textOf(file)!;
      for (const match of text.matchAll(MARKDOWN_LINK)) {
        const target = match[1]!;
        if (/^[a-z][a-z+.-]*:/i.test(target) || target.startsWith('#')) continue;
        if (!existsFrom(file, target)) broken.push(`${file}:${lineOf(text, match.index)} ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('links its architecture document from the README', () => {
    const readme = fs.readFileSync(path.join(clone, 'README.md'), 'utf8');
    expect(readme).toMatch(/\]\(docs\/ARCHITECTURE\.md\)/);
    const architecture = fs.readFileSync(path.join(clone, 'docs/ARCHITECTURE.md'), 'utf8');
    for (const heading of ['layers', 'life of a tool call', 'event log', 'permission', 'fence', 'glossary']) {
      expect(architecture.toLowerCase(), heading).toContain(heading);
    }
    for (const word of ['unpinnable', 'fold', 'grant', 'fence', 'taint', 'checkpoint']) {
      expect(architecture, word).toMatch(new RegExp(`\\*\\*${word}\\w*\\*\\*`, 'i'));
    }
  });

  it('carries the test data, committed, with a note on where it came from and its licence', () => {
    for (const folder of DATA_FOLDERS) {
      const here = filesUnder(path.join(repoRoot, folder));
      const cloned = filesUnder(path.join(clone, folder));
      expect(here.length, folder).toBeGreaterThan(0);
      expect(cloned, `${folder}: files present here but not committed`).toEqual(here);
      const note = fs.readFileSync(path.join(clone, folder, 'README.md'), 'utf8');
      expect(note, `${folder}/README.md`).toMatch(/licen[cs]e/i);
      expect(note, `${folder}/README.md`).toMatch(/came from|taken from|source/i);
    }
    for (const name of ['injections.json', 'rule_matching.json', 'safe_commands.json', 'shell_split.json']) {
      expect(readCaseFile(name, clone).cases.length, name).toBeGreaterThan(0);
    }
  });
});

function filesUnder(dir: string, maxDepth = Infinity): string[] {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile() && path.relative(dir, entry.parentPath).split(path.sep).filter(Boolean).length < maxDepth)
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}
