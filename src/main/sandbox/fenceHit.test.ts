import { describe, expect, it } from 'vitest';
import type { EffectiveFence } from './fence';
import { describeFenceHits, findFenceHits } from './fenceHit';

const fence: EffectiveFence = {
  workspace: '/ws',
  privateTmp: '/data/sandbox/tmp/s1',
  caches: '/data/sandbox/caches/ws-1',
  quarantine: '/data/sandbox/quarantine',
  supervisors: '/data/sandbox/supervisor',
  allowWrite: ['/ws', '/cache'],
  denyWrite: ['/ws/.git/hooks', '/ws/.tether'],
  denyRead: ['/home/me/.ssh', '/ws/.env*', '/ws/*/.env*'],
  denyReadNamed: ['.env*'],
  allowRead: [],
  allowedDomains: ['registry.npmjs.org', '*.github.com'],
};
const find = (output: string, denials: Array<{ host: string; port: number; reason: string; leftBehind?: boolean }> = []) =>
  findFenceHits({ output, cwd: '/ws', fence, denials, home: '/home/me' });

describe('findFenceHits', () => {
  it('names a connection a process left behind by an earlier command made, as not this command’s doing', () => {
    const [hit] = find('', [{ host: 'evil.example', port: 443, reason: 'denied', leftBehind: true }]);
    expect(hit).toEqual({
      fence: 'network',
      target: 'evil.example:443',
      leftBehind: true,
      message: expect.stringContaining(
        'a process an earlier command left running tried to reach evil.example:443 after that command had ended',
      ),
    });
  });

  it.each([
    ['bash', '/usr/bin/bash: line 1: /etc/x: Read-only file system', '/etc/x'],
    ['touch', "touch: cannot touch '/opt/y': Read-only file system", '/opt/y'],
    ['node', "Error: EROFS: read-only file system, open '/var/z'", '/var/z'],
    ['python', "OSError: [Errno 30] Read-only file system: '/srv/w'", '/srv/w'],
  ])('names a write outside the workspace reported by %s', (_tool, line, target) => {
    expect(find(line)).toEqual([{ fence: 'write', target, message: expect.stringContaining(`${target} is outside the workspace`) }]);
  });

  it('names the protected folder for a write inside the workspace that the fence denies', () => {
    expect(find('/usr/bin/bash: line 1: .git/hooks/pre-commit: Read-only file system')[0]?.message).toBe(
      'the write fence: .git/hooks is protected from commands',
    );
    expect(find('mkdir: cannot create directory ‘.tether’: File exists')[0]?.target).toBe('.tether');
  });

  it('knows a protected path by its being busy: a mount point cannot be renamed over or removed, whatever the write observer saw', () => {
    fence.denyWrite.push('/ws/.git/config');
    try {
      for (const line of [
        'error: could not write config file .git/config: Device or resource busy',
        "rm: cannot remove '.git/hooks': Device or resource busy",
        "Error: EBUSY: resource busy or locked, rename '/ws/.git/config.tmp' -> '/ws/.git/config'",
      ]) {
        expect(find(line)[0]?.message, line).toMatch(/^the write fence: \.git\/(config|hooks) is protected from commands$/);
      }
    } finally {
      fence.denyWrite.pop();
    }
    // Busy anywhere else is the program's own trouble.
    expect(find("rm: cannot remove 'mnt/disk': Device or resource busy")).toEqual([]);
    expect(find('umount: /ws/build: target is busy')).toEqual([]);
  });

  it('names a secret that could not be read, with ~ and globbed .env files', () => {
    expect(find('cat: /home/me/.ssh/id_rsa: No such file or directory')[0]).toMatchObject({
      fence: 'read',
      target: '/home/me/.ssh/id_rsa',
    });
    expect(find('cat: ~/.ssh/config: No such file or directory')[0]).toMatchObject({ fence: 'read', target: '/home/me/.ssh/config' });
    // Deeper than the fence's globs: a secret file at any depth (denyReadNamed).
    expect(find('cat: packages/api/.env.local: Permission denied')[0]).toMatchObject({ fence: 'read', target: 'packages/api/.env.local' });
    expect(find('cat: services/api/config/prod/.env: No such file or directory')[0]).toMatchObject({
      fence: 'read',
      target: 'services/api/config/prod/.env',
    });
    expect(find('cat: web/.env.local: Permission denied')[0]).toMatchObject({ fence: 'read', target: 'web/.env.local' });
    // tar of a folder holding one says what it tried first (issue 29: a secret read by other programs).
    expect(find('tar: ./.env: Cannot open: Permission denied')[0]).toMatchObject({ fence: 'read', target: '.env' });
    expect(find('tar: notes.txt: Cannot open: Permission denied')).toEqual([]);
  });

  it('leaves ordinary failures alone: a missing file, a write inside the workspace or an allowed folder', () => {
    expect(find('cat: notes.txt: No such file or directory')).toEqual([]);
    expect(find('/usr/bin/bash: line 1: src/a.ts: Permission denied')).toEqual([]);
    expect(find("touch: cannot touch '/cache/x': Permission denied")).toEqual([]);
    expect(find('echo: write error: /dev/full: No space left on device')).toEqual([]);
    expect(find('all good')).toEqual([]);
  });

  it('names a domain the proxy refused, and says when the shared proxy, not the fence, refused a listed one', () => {
    expect(find('', [{ host: 'evil.example', port: 443, reason: 'host is not on the allow list' }])[0]?.message).toContain(
      'evil.example is not an allowed domain',
    );
    expect(find('', [{ host: 'api.github.com', port: 443, reason: 'host is not on the allow list' }])[0]?.message).toContain(
      'another session',
    );
  });

  it('joins several hits into one sentence, each once', () => {
    const hits = find(
      'cat: /home/me/.ssh/a: No such file or directory\ncat: /home/me/.ssh/a: No such file or directory\n/usr/bin/bash: line 2: /etc/x: Read-only file system',
    );
    expect(hits).toHaveLength(2);
    expect(describeFenceHits(hits)).toMatch(/^the read fence: .*; the write fence: /);
  });
});
