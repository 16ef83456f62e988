import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from './store';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-store-'));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('openStore', () => {
  it('creates the data directory for its owner only and keeps tether.db in it', () => {
    const dataDir = path.join(dir, 'nested', 'data');
    const store = openStore(dataDir);
    store.close();
    expect(store.file).toBe(path.join(dataDir, 'tether.db'));
    expect(fs.existsSync(store.file)).toBe(true);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('opens a database file by name, and the same data through a data directory', () => {
    const byFile = openStore({ file: path.join(dir, 'tether.db') });
    const { id } = byFile.sessions.create({ workspace: '/w', model: 'm', api: 'chat', baseUrl: 'http://127.0.0.1:9', maxSteps: 5 });
    byFile.close();
    const byDir = openStore({ dataDir: dir });
    expect(byDir.sessions.get(id)?.id).toBe(id);
    byDir.close();
  });

  it('works in memory, for tests of other parts', () => {
    const store = openStore({ file: ':memory:' });
    const { id } = store.sessions.create({ workspace: '/w', model: 'm', api: 'chat', baseUrl: 'http://127.0.0.1:9', maxSteps: 5 });
    expect(store.events.append(id, { type: 'user.messaged', text: 'hi' }).seq).toBe(1);
    store.close();
  });
});
