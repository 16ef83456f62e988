import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectPackageRegistries } from './packageRegistries';

describe('detectPackageRegistries', () => {
  it.each([
    [['package.json'], ['registry.npmjs.org']],
    [['pnpm-lock.yaml'], ['registry.npmjs.org']],
    [['requirements.txt'], ['pypi.org', 'files.pythonhosted.org']],
    [
      ['pyproject.toml', 'Cargo.toml'],
      ['pypi.org', 'files.pythonhosted.org', 'crates.io', 'index.crates.io', 'static.crates.io'],
    ],
    [['go.mod'], ['proxy.golang.org', 'sum.golang.org']],
    [['README.md'], []],
  ])('finds the registries of a project with %j', (files, domains) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-registries-'));
    for (const file of files) fs.writeFileSync(path.join(dir, file), '');
    expect(detectPackageRegistries(dir).sort()).toEqual([...domains].sort());
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
