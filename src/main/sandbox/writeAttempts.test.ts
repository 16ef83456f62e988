import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { refusedWrites, seatbeltRefusedWrite } from './writeAttempts';

describe('refusedWrites: the writes worth naming', () => {
  it('leaves out mkdir -p on folders that are there, names the shallowest of a tree, and at most five', () => {
    const home = os.homedir();
    expect(
      refusedWrites([
        { syscall: 'mkdir', path: home },
        { syscall: 'mkdir', path: `${home}/.npm-probe` },
        { syscall: 'mkdir', path: `${home}/.npm-probe/_cacache` },
        { syscall: 'openat', path: `${home}/.npm-probe/_cacache/index` },
        { syscall: 'openat', path: '/etc/probe' },
      ]),
    ).toEqual(['/etc/probe', `${home}/.npm-probe`]);
    expect(refusedWrites(Array.from({ length: 9 }, (_, i) => ({ syscall: 'openat', path: `/etc/probe-${i}` })))).toHaveLength(5);
  });

  it("reads Seatbelt's deny lines for writes, and nothing else", () => {
    expect(seatbeltRefusedWrite('bash(412) deny(1) file-write-create /Users/me/.npm/_cacache')).toBe('/Users/me/.npm/_cacache');
    expect(seatbeltRefusedWrite('bash(412) deny(1) file-read-data /Users/me/.ssh/id_rsa')).toBeUndefined();
    expect(seatbeltRefusedWrite('deny network-outbound example.com:443 (user denied)')).toBeUndefined();
  });
});
