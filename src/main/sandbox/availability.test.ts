import { describe, expect, it } from 'vitest';
import { checkSandboxAvailability } from './availability';

describe('checkSandboxAvailability', () => {
  it('finds bubblewrap, socat and ripgrep here, and a working user namespace', () => {
    expect(checkSandboxAvailability()).toEqual({ available: true });
  });

  it('says plainly what is missing and how to install it', () => {
    const answer = checkSandboxAvailability({ pathEnv: '/nonexistent-bin' });
    expect(answer.available).toBe(false);
    expect(!answer.available && answer.reason).toMatch(
      /needs bubblewrap \(bwrap\), socat, ripgrep \(rg\).*apt-get install bubblewrap socat ripgrep/,
    );
  });

  it('says Windows has no sandbox yet', () => {
    const answer = checkSandboxAvailability({ platform: 'win32' });
    expect(!answer.available && answer.reason).toMatch(/cannot sandbox commands on Windows/);
  });
});
