import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/store';
import { readSandboxSettings } from '../sandbox/fenceSettings';
import { createSandboxHandlers } from './sandboxHandlers';

let root = '';
let store: Store | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
  fs.rmSync(root, { recursive: true, force: true });
});

function setup() {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-sandbox-handlers-')));
  const dataDir = path.join(root, 'data');
  const project = path.join(root, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), '{}');
  fs.writeFileSync(path.join(project, 'go.mod'), 'module x');
  store = openStore(dataDir);
  const { id } = store.projects.ensure(project);
  const home = path.join(root, 'home');
  return { handlers: createSandboxHandlers({ dataDir, store, home }), projectId: id, dataDir, project, home };
}

describe('the sandbox requests', () => {
  it('show the built-in fence and an empty project fence at first', async () => {
    const { handlers, projectId, project, dataDir } = setup();
    const view = await handlers['sandbox:get']({ projectId });
    expect(view).toMatchObject({
      available: true,
      unavailable: 'ask',
      fence: { allowWrite: [], denyWrite: [], denyRead: [], allowedDomains: [], packageRegistries: false },
    });
    expect(view.builtIn.allowWrite).toEqual([project]);
    expect(view.builtIn.caches).toMatch(new RegExp(`^${dataDir}/sandbox/caches/project-`));
    expect(view.builtIn.denyRead).toContain(dataDir);
  });

  it('keep what the person sets per project in the data folder, never in the repository', async () => {
    const { handlers, projectId, dataDir, project } = setup();
    const view = await handlers['sandbox:update']({
      projectId,
      fence: {
        allowWrite: [' ~/.cache ', ''],
        denyWrite: [],
        denyRead: [],
        allowedDomains: ['api.example.com', 'api.example.com'],
        packageRegistries: false,
      },
      unavailable: 'refuse',
    });
    expect(view.fence).toEqual({
      allowWrite: ['~/.cache'],
      denyWrite: [],
      denyRead: [],
      allowedDomains: ['api.example.com'],
      packageRegistries: false,
    });
    expect(view.unavailable).toBe('refuse');
    expect(readSandboxSettings(dataDir).projects[project]?.allowedDomains).toEqual(['api.example.com']);
    expect(fs.readdirSync(project).sort()).toEqual(['go.mod', 'package.json']);
  });

  it('switch the package registries preset on for one project, keeping what was there, and list what it lets through', async () => {
    const { handlers, projectId, dataDir, project } = setup();
    const view = await handlers['sandbox:update']({
      projectId,
      fence: { allowWrite: [], denyWrite: [], denyRead: [], allowedDomains: ['api.example.com'], packageRegistries: true },
    });
    expect(view.fence).toMatchObject({ allowedDomains: ['api.example.com'], packageRegistries: true });
    expect(readSandboxSettings(dataDir).projects[project]?.packageRegistries).toBe(true);
    expect(view.registries?.flatMap((registry) => registry.domains)).toEqual(expect.arrayContaining(['registry.npmjs.org', 'pypi.org']));
  });

  it('light a folder of the home folder for one project, in the data folder, and show what is lit already', async () => {
    const { handlers, projectId, dataDir, project } = setup();
    const fence = { allowWrite: [], denyWrite: [], denyRead: [], allowedDomains: [], packageRegistries: false };
    const view = await handlers['sandbox:update']({ projectId, fence: { ...fence, litHome: [' ~/.config/mytool ', '~/.config/mytool'] } });
    expect(view.fence.litHome).toEqual(['~/.config/mytool']);
    expect(readSandboxSettings(dataDir).projects[project]?.litHome).toEqual(['~/.config/mytool']);
    expect(view.builtIn.litHome?.map((entry) => entry.path)).toEqual(expect.arrayContaining(['~/.nvm', '~/.pyenv', '~/.cargo/bin']));
  });

  it('refuse to light a path outside the home folder, the whole home folder, or a known secret store, and keep what was there', async () => {
    const { handlers, projectId, dataDir, project, home } = setup();
    const fence = { allowWrite: [], denyWrite: [], denyRead: [], allowedDomains: [], packageRegistries: false };
    await handlers['sandbox:update']({ projectId, fence: { ...fence, litHome: ['~/.config/mytool'] } });
    const refused: Array<[string, RegExp]> = [
      ['/etc/ssl', /is outside the home folder/],
      ['~', /The whole home folder cannot be lit/],
      [home, /The whole home folder cannot be lit/],
      ['~/../other', /is outside the home folder/],
      ['~/.ssh', /would light ~\/\.ssh, which holds credentials/],
      ['~/.claude/.credentials.json', /~\/\.claude, which holds credentials/],
      ['~/.config', /which holds credentials/],
      ['~/.mozilla/firefox', /~\/\.mozilla, which holds credentials/],
      ['~/.cargo', /~\/\.cargo\/credentials/],
      ['relative/path', /not a path in the home folder/],
    ];
    for (const [entry, why] of refused) {
      await expect(handlers['sandbox:update']({ projectId, fence: { ...fence, litHome: [entry] } }), entry).rejects.toThrow(why);
    }
    expect(readSandboxSettings(dataDir).projects[project]?.litHome).toEqual(['~/.config/mytool']);
  });

  it('refuse an unknown project', async () => {
    const { handlers } = setup();
    await expect(handlers['sandbox:get']({ projectId: 'nope' })).rejects.toThrow(/There is no project nope/);
  });
});
