import { describe, expect, it } from 'vitest';
import { effectiveFence } from './fence';
import { isPackageRegistry, PACKAGE_REGISTRY_DOMAINS, registryPhrase } from './packageRegistries';

describe('the package registries preset', () => {
  it('is off unless the person switches it on for the project, and then lets commands reach every registry', () => {
    const off = effectiveFence({ workspace: '/ws', dataDir: '/d', home: '/h' });
    expect(off.allowedDomains).toEqual([]);
    const on = effectiveFence({
      workspace: '/ws',
      dataDir: '/d',
      home: '/h',
      custom: { allowWrite: [], denyWrite: [], denyRead: [], allowedDomains: ['api.example.com'], packageRegistries: true },
    });
    expect(on.allowedDomains).toEqual(['api.example.com', ...PACKAGE_REGISTRY_DOMAINS]);
    expect(on.allowedDomains).toEqual(
      expect.arrayContaining(['registry.npmjs.org', 'pypi.org', 'files.pythonhosted.org', 'static.crates.io']),
    );
  });

  it('adds the hosts one headless run allows (tether run --allow-host), for that run only', () => {
    const fence = effectiveFence({ workspace: '/ws', dataDir: '/d', home: '/h', runHosts: ['mirror.example.com', '127.0.0.1:4873'] });
    expect(fence.allowedDomains).toEqual(['mirror.example.com', '127.0.0.1:4873']);
  });

  it('names a registry host in a network question', () => {
    expect(isPackageRegistry('Registry.NPMjs.org')).toBe(true);
    expect(isPackageRegistry('evil.example.com')).toBe(false);
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
