import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MONACO_WORKERS_MODULE, withoutEditorFeatures } from '../scripts/monacoWorkersAlone';

// The build drops Monaco's editor features from the module its language services start workers
// through (scripts/monacoWorkersAlone.ts). Read against the Monaco installed, so an upgrade that
// moves or rewrites that module fails here rather than bringing every feature back unseen.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const installed = readFileSync(path.join(root, 'node_modules', MONACO_WORKERS_MODULE), 'utf8');
const featureImports = (code: string) => code.match(/^import '\.\.\/\.\.\/editor\/(?:contrib|standalone\/browser)\/[^']+';$/gm) ?? [];

describe("Monaco's worker module, as the renderer's build reads it", () => {
  it('imports every editor feature as installed, which is why the build trims it', () => {
    const imported = featureImports(installed);
    expect(imported.length).toBeGreaterThan(50);
    expect(imported).toEqual(expect.arrayContaining([expect.stringContaining('suggest'), expect.stringContaining('codeAction')]));
  });

  it('keeps none of them once trimmed, and still gives the language services their workers', () => {
    const trimmed = withoutEditorFeatures(installed);
    expect(featureImports(trimmed)).toEqual([]);
    expect(trimmed).not.toMatch(/editor\/contrib\//);
    expect(trimmed).toMatch(/^import \{ editor \} from '\.\.\/\.\.\/editor\/editor\.api\.js';$/m);
    expect(trimmed).toMatch(/export \{[^}]*createWebWorker/);
    // The base it needs is kept: the editor widgets and the diff editor's own contribution.
    expect(trimmed).toMatch(/^import '[./]+editor\/browser\/widget\/diffEditor\/diffEditor\.contribution\.js';$/m);
  });
});
