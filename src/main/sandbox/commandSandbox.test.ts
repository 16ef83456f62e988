import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCommandSandbox, fenceEntryFor } from './commandSandbox';

describe('fenceEntryFor (what Allow always adds for a connection)', () => {
  it('keeps a name as the domain, for every port', () => {
    expect(fenceEntryFor('registry.npmjs.org', 443)).toBe('registry.npmjs.org');
  });

  it('keeps an address, or localhost, with its port: each port of a machine is another service', () => {
    expect(fenceEntryFor('127.0.0.1', 8080)).toBe('127.0.0.1:8080');
    expect(fenceEntryFor('::1', 8080)).toBe('[::1]:8080');
    expect(fenceEntryFor('localhost', 5432)).toBe('localhost:5432');
    expect(fenceEntryFor('db.localhost', 5432)).toBe('db.localhost:5432');
  });
});

describe('createCommandSandbox: whether a sandbox is available', () => {
  it('is probed when first asked, not when the session starts, and once', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-probe-')));
    try {
      // bwrap, socat and rg on a PATH of their own: the probe runs bwrap, which here notes each run.
      const bin = path.join(root, 'bin');
      const runs = path.join(root, 'bwrap-runs');
      fs.mkdirSync(bin);
      fs.writeFileSync(path.join(bin, 'bwrap'), `#!/bin/sh\necho ran >> '${runs}'\n`, { mode: 0o755 });
      for (const tool of ['socat', 'rg']) fs.writeFileSync(path.join(bin, tool), '#!/bin/sh\n', { mode: 0o755 });
      const workspace = path.join(root, 'project');
      fs.mkdirSync(workspace);
      const sandbox = createCommandSandbox({ workspace, dataDir: path.join(root, 'data'), pathEnv: bin, platform: 'linux' });
      expect(fs.existsSync(runs)).toBe(false);
      expect(sandbox.availability).toEqual({ available: true });
      expect(sandbox.availability.available).toBe(true);
      expect(fs.readFileSync(runs, 'utf8')).toBe('ran\n');
      sandbox.dispose();
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
