import { describe, expect, it } from 'vitest';
import { fenceEntryFor } from './commandSandbox';

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
