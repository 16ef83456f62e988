import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './store';

let dir: string;
let store: Store;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-projects-'));
  store = openStore(dir, { now: () => 1_700_000_000_000 });
});

afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('projects', () => {
  it('adds a folder once, untrusted, named after it, however its path is written', () => {
    const first = store.projects.ensure('/work/app');
    expect(first).toEqual({
      id: first.id,
      path: '/work/app',
      name: 'app',
      trusted: false,
      defaultMode: null,
      createdAt: 1_700_000_000_000,
    });
    expect(store.projects.ensure('/work/app/')).toEqual(first);
    expect(store.projects.ensure('/work/other/../app')).toEqual(first);
    expect(store.projects.list()).toEqual([first]);
    expect(store.projects.byPath('/work/app')).toEqual(first);
  });

  it('remembers trust', () => {
    const { id } = store.projects.ensure('/work/app', 'My app');
    expect(store.projects.setTrusted(id, true).trusted).toBe(true);
    store.close();
    store = openStore(dir);
    expect(store.projects.get(id)).toMatchObject({ name: 'My app', trusted: true });
  });

  it('remembers the mode its new sessions start in, and refuses one no new session may start in', () => {
    const { id } = store.projects.ensure('/work/app');
    expect(store.projects.setDefaultMode(id, 'auto')).toMatchObject({ id, defaultMode: 'auto' });
    store.close();
    store = openStore(dir);
    expect(store.projects.get(id)?.defaultMode).toBe('auto');
    expect(store.projects.ensure('/work/app').defaultMode).toBe('auto');
    expect(store.projects.setDefaultMode(id, 'ask').defaultMode).toBe('ask');
    expect(() => store.projects.setDefaultMode(id, 'unleashed' as never)).toThrow(/CHECK constraint/);
    expect(store.projects.get(id)?.defaultMode).toBe('ask');
    expect(() => store.projects.setDefaultMode('p_missing', 'ask')).toThrow(/no project p_missing/);
  });
});
