import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from './support/tempDirs';

/**
 * The boundary check of `npm run lint` (lint:layers) can fail: the repository's own
 * .dependency-cruiser.cjs, run on small made-up trees, names the rule each import up the layers
 * breaks, and lets the imports down through. If the rules or their options stop catching these
 * (a layer's path typed wrong, type-only imports no longer counted), this fails.
 */

const root = path.resolve(import.meta.dirname, '..');
const load = (file: string) => createRequire(import.meta.url)(path.join(root, file)) as IConfiguration;
const config = load('.dependency-cruiser.cjs');
const folderConfig = load('.dependency-cruiser.folders.cjs');

afterAll(removeTempDirs);

interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** Writes `files` (path -> source) into a fresh folder and cruises its src/ with the repository's rules. */
async function violationsIn(files: Record<string, string>, rules: IConfiguration = config): Promise<Violation[]> {
  const dir = tempDir('tether-layers-');
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), source);
  }
  // The repository's options, but not its tsconfig: the made-up tree has none (and needs none).
  const { tsConfig: _tsConfig, ...options } = rules.options ?? {};
  const result = await cruise(['src'], { ...options, baseDir: dir, validate: true, ruleSet: { forbidden: rules.forbidden ?? [] } });
  const output = result.output as ICruiseResult;
  return output.summary.violations
    .map((violation) => ({ rule: violation.rule.name, from: violation.from, to: violation.to }))
    .sort((a, b) => a.rule.localeCompare(b.rule) || a.from.localeCompare(b.from));
}

const empty = 'export const value = 1;\n';

describe('the layers check (.dependency-cruiser.cjs)', () => {
  it('names the rule when a lower layer imports a higher one, by value', async () => {
    expect(
      await violationsIn({
        'src/main/workspace/paths.ts': "import { ToolError } from '../tools/defineTool';\nexport const guard = ToolError;\n",
        'src/main/tools/defineTool.ts': 'export class ToolError extends Error {}\n',
        'src/main/core.ts': "import { services } from './app/createServices';\nexport const core = services;\n",
        'src/main/app/createServices.ts': empty.replace('value', 'services'),
      }),
    ).toEqual([
      { rule: 'main-layers: base imports tools-mcp', from: 'src/main/workspace/paths.ts', to: 'src/main/tools/defineTool.ts' },
      { rule: 'main-layers: core imports app', from: 'src/main/core.ts', to: 'src/main/app/createServices.ts' },
    ]);
  });

  it('counts a type-only import up the layers as one', async () => {
    const violations = await violationsIn({
      'src/main/tools/execute.ts': "import type { SessionLog } from '../agent/sessionLog';\nexport type Log = SessionLog;\n",
      'src/main/agent/sessionLog.ts': 'export interface SessionLog { id: string }\n',
      'src/main/checkpoints/checkpoints.ts': "import type { Manager } from '../app/sessions/sessionManager';\nexport type M = Manager;\n",
      'src/main/app/sessions/sessionManager.ts': 'export interface Manager { id: string }\n',
    });
    expect(violations).toEqual([
      {
        rule: 'main-layers: checkpoints-review imports app',
        from: 'src/main/checkpoints/checkpoints.ts',
        to: 'src/main/app/sessions/sessionManager.ts',
      },
      { rule: 'main-layers: tools-mcp imports agent', from: 'src/main/tools/execute.ts', to: 'src/main/agent/sessionLog.ts' },
    ]);
  });

  it('lets imports down the layers through', async () => {
    expect(
      await violationsIn({
        'src/main/index.ts': "import { host } from './host/serve';\nexport const app = host;\n",
        'src/main/host/serve.ts': "import { services } from '../app/createServices';\nexport const host = services;\n",
        'src/main/app/createServices.ts': "import { core } from '../core';\nexport const services = core;\n",
        'src/main/core.ts': "import { loop } from './agent/loop';\nexport const core = loop;\n",
        'src/main/agent/loop.ts': "import { run } from '../tools/execute';\nexport const loop = run;\n",
        'src/main/tools/execute.ts':
          "import type { Log } from '../store/sessionLog';\nimport { shared } from '../../shared/contract';\nexport const run = shared as Log | string;\n",
        'src/main/store/sessionLog.ts': 'export type Log = string;\n',
        'src/shared/contract.ts': "export const shared = 'contract';\n",
        'src/renderer/src/features/chat/Chat.ts':
          "import { icon } from '../../ui/Icon';\nimport { store } from '../../stores/store';\nexport const chat = [icon, store];\n",
        'src/renderer/src/ui/Icon.ts': empty.replace('value', 'icon'),
        'src/renderer/src/stores/store.ts': "import { shared } from '../../../shared/contract';\nexport const store = shared;\n",
      }),
    ).toEqual([]);
  });

  it('keeps the renderer to src/shared and its own rooms: stores below features, features below the shell', async () => {
    expect(
      await violationsIn({
        'src/renderer/src/stores/store.ts': "import { Panel } from '../features/diff/Panel';\nexport const store = Panel;\n",
        'src/renderer/src/features/diff/Panel.ts': "import { App } from '../../app/App';\nexport const Panel = App;\n",
        'src/renderer/src/app/App.ts': "import { core } from '../../../main/core';\nexport const App = core;\n",
        'src/main/core.ts': empty.replace('value', 'core'),
      }),
    ).toEqual([
      { rule: 'renderer imports main or preload', from: 'src/renderer/src/app/App.ts', to: 'src/main/core.ts' },
      { rule: 'renderer: features import app', from: 'src/renderer/src/features/diff/Panel.ts', to: 'src/renderer/src/app/App.ts' },
      {
        rule: 'renderer: stores import features, ui or app',
        from: 'src/renderer/src/stores/store.ts',
        to: 'src/renderer/src/features/diff/Panel.ts',
      },
    ]);
  });

  it('keeps src/shared free of Node and of the rest of src, and every main file in a layer', async () => {
    expect(
      await violationsIn({
        'src/shared/events.ts':
          "import { readFileSync } from 'node:fs';\nimport { draw } from '../renderer/src/lib/draw';\nimport { core } from '../main/core';\nexport const events = [readFileSync, draw, core];\n",
        'src/renderer/src/lib/draw.ts': empty.replace('value', 'draw'),
        'src/main/core.ts': "import { helper } from './helpers/helper';\nexport const core = helper;\n",
        'src/main/helpers/helper.ts': empty.replace('value', 'helper'),
      }),
    ).toEqual([
      { rule: 'main file outside every layer', from: 'src/main/core.ts', to: 'src/main/helpers/helper.ts' },
      { rule: 'main-layers: shared imports core', from: 'src/shared/events.ts', to: 'src/main/core.ts' },
      { rule: 'shared imports Node or a library', from: 'src/shared/events.ts', to: 'fs' },
      { rule: 'shared imports renderer or preload', from: 'src/shared/events.ts', to: 'src/renderer/src/lib/draw.ts' },
    ]);
  });

  it('refuses two files of src/shared that import each other, a type-only import counting, but not a test among them', async () => {
    expect(
      await violationsIn({
        'src/shared/session.ts':
          "import { applyRewound } from './rewinds';\nexport interface SessionState { n: number }\nexport const fold = applyRewound;\n",
        'src/shared/rewinds.ts':
          "import type { SessionState } from './session';\nexport const applyRewound = (state: SessionState) => state;\n",
        'src/shared/plan.ts': "import { fold } from './session';\nexport const plan = fold;\n",
        'src/shared/plan.test.ts': "import { plan } from './plan';\nexport const tested = plan;\n",
      }),
    ).toEqual([{ rule: 'shared module cycle', from: 'src/shared/rewinds.ts', to: 'src/shared/session.ts' }]);
  });

  it('keeps each library behind its one door', async () => {
    const library = (name: string) => ({
      [`node_modules/${name}/package.json`]: JSON.stringify({ name, main: 'index.js' }),
      [`node_modules/${name}/index.js`]: 'module.exports = {};\n',
    });
    expect(
      await violationsIn({
        ...library('better-sqlite3'),
        ...library('electron'),
        ...library('node-pty'),
        ...library('web-tree-sitter'),
        'src/main/shell/parser.ts': "import { Parser } from 'web-tree-sitter';\nexport const parser = Parser;\n",
        'src/main/hooks/hookPlacement.ts': "import { Parser } from 'web-tree-sitter';\nexport const parse = Parser;\n",
        'src/main/store/sqlite/database.ts': "import Database from 'better-sqlite3';\nexport const db = Database;\n",
        'src/main/store/eventLog.ts': "import Database from 'better-sqlite3';\nexport const log = Database;\n",
        'src/main/tools/runCommand.ts': "import { spawn } from 'node-pty';\nexport const run = spawn;\n",
        'src/main/app/createServices.ts':
          "import { app } from 'electron';\nimport Database from 'better-sqlite3';\nexport const services = [app, Database];\n",
        'src/main/index.ts': "import { app } from 'electron';\nexport const main = app;\n",
      }),
    ).toEqual([
      { rule: 'better-sqlite3 outside store/sqlite/', from: 'src/main/app/createServices.ts', to: 'node_modules/better-sqlite3/index.js' },
      { rule: 'better-sqlite3 outside store/sqlite/', from: 'src/main/store/eventLog.ts', to: 'node_modules/better-sqlite3/index.js' },
      { rule: 'electron outside the Electron layer', from: 'src/main/app/createServices.ts', to: 'node_modules/electron/index.js' },
      { rule: 'node-pty outside terminal/pty.ts', from: 'src/main/tools/runCommand.ts', to: 'node_modules/node-pty/index.js' },
      { rule: 'web-tree-sitter outside shell/', from: 'src/main/hooks/hookPlacement.ts', to: 'node_modules/web-tree-sitter/index.js' },
    ]);
  });

  it('keeps the shell analysis below the rules that read it', async () => {
    expect(
      await violationsIn({
        'src/main/shell/describeParts.ts': "import { offer } from '../permissions/allowAlways';\nexport const parts = offer;\n",
        'src/main/permissions/allowAlways.ts': "import { workspace } from '../workspace/filePaths';\nexport const offer = workspace;\n",
        'src/main/permissions/engine.ts': "import { parts } from '../shell/describeParts';\nexport const engine = parts;\n",
        'src/main/workspace/filePaths.ts': "import { parts } from '../shell/describeParts';\nexport const workspace = parts;\n",
      }),
    ).toEqual([
      { rule: 'main-layers: base imports shell', from: 'src/main/workspace/filePaths.ts', to: 'src/main/shell/describeParts.ts' },
      {
        rule: 'main-layers: shell imports permissions-sandbox-model',
        from: 'src/main/shell/describeParts.ts',
        to: 'src/main/permissions/allowAlways.ts',
      },
    ]);
  });

  it('refuses two folders of one layer that import each other, but not a test that imports its helpers', async () => {
    const violations = await violationsIn(
      {
        // The two cycles the lint once let through: terminal <-> workspace (base) and host <-> cli.
        'src/main/terminal/pty.ts': "import { searchPath } from '../workspace/programSearchPath';\nexport const pty = searchPath;\n",
        'src/main/workspace/programSearchPath.ts': empty.replace('value', 'searchPath'),
        'src/main/workspace/git.ts': "import { environment } from '../terminal/commandEnvironment';\nexport const git = environment;\n",
        'src/main/terminal/commandEnvironment.ts': empty.replace('value', 'environment'),
        'src/main/host/serveCommand.ts': "import { CliError } from '../cli/cliError';\nexport const serve = CliError;\n",
        'src/main/cli/cliError.ts': empty.replace('value', 'CliError'),
        'src/main/cli/tether.ts': "import { serve } from '../host/serveCommand';\nexport const tether = serve;\n",
        // One way only, and a test reaching its helpers (which reach back): neither is a cycle.
        'src/main/tools/execute.ts': "import { git } from '../workspace/git';\nexport const run = git;\n",
        'src/main/store/store.test.ts': "import { helper } from '../../../test/support/helper';\nexport const t = helper;\n",
        'test/support/helper.ts':
          "import { run } from '../../src/main/tools/execute';\nimport { pty } from '../../src/main/terminal/pty';\nexport const helper = [run, pty];\n",
      },
      folderConfig,
    );
    expect(violations).toEqual([
      { rule: 'folder cycle', from: 'src/main/cli', to: 'src/main/host' },
      { rule: 'folder cycle', from: 'src/main/host', to: 'src/main/cli' },
      { rule: 'folder cycle', from: 'src/main/terminal', to: 'src/main/workspace' },
      { rule: 'folder cycle', from: 'src/main/workspace', to: 'src/main/terminal' },
    ]);
  });

  it('is what npm run lint runs', () => {
    const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.lint).toContain('npm run lint:layers');
    expect(scripts['lint:layers']).toContain('--config .dependency-cruiser.cjs');
    expect(scripts['lint:layers']).toContain('--config .dependency-cruiser.folders.cjs');
    expect(scripts.test).toContain('npm run lint');
  });
});
