import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectPackageRegistries, registryPhrase } from './packageRegistries';

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

describe('registryPhrase', () => {
  it('says "its package registry" only for the registry of the program that reaches it (issue 29)', () => {
    expect(registryPhrase('registry.npmjs.org', ['npm'])).toBe('its package registry');
    expect(registryPhrase('pypi.org', ['/usr/bin/pip3'])).toBe('its package registry');
    expect(registryPhrase('files.pythonhosted.org', ['uv'])).toBe('its package registry');
    // A Python command reaching npm's registry is told so, not that it is "its" registry.
    expect(registryPhrase('registry.npmjs.org', ['python3'])).toBe('the npm package registry');
    expect(registryPhrase('pypi.org', ['npm'])).toBe('the Python (PyPI) package registry');
    expect(registryPhrase('example.com', ['npm'])).toBeUndefined();
  });
});
