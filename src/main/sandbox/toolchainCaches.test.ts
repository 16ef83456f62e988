import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheEnvironment, cacheTrouble, ensureCacheFolders, projectCachesDir } from './toolchainCaches';

let root = '';
afterEach(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

function caches(): string {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-caches-')));
  return path.join(root, 'caches', 'app-1');
}

describe('the toolchain caches of a project', () => {
  it('are one folder per project in the data folder, kept apart by the project’s full path', () => {
    expect(projectCachesDir('/data', '/code/app')).toMatch(/^\/data\/sandbox\/caches\/app-[0-9a-f]{12}$/);
    expect(projectCachesDir('/data', '/code/app')).not.toBe(projectCachesDir('/data', '/other/app'));
  });

  it("replace what the person set, keep the person's MAVEN_OPTS in front of the repository, and point browsers back at the person's", () => {
    const dir = caches();
    const home = path.join(root, 'home');
    fs.mkdirSync(path.join(home, '.cache', 'ms-playwright'), { recursive: true });
    const env = cacheEnvironment(
      dir,
      { npm_config_cache: '/home/me/.npm', MAVEN_OPTS: '-Xmx2g -Dmaven.repo.local=/home/me/.m2/repository' },
      home,
    );
    expect(env.npm_config_cache).toBe(path.join(dir, 'npm'));
    expect(env.CARGO_HOME).toBe(path.join(dir, 'cargo'));
    expect(env.GOMODCACHE).toBe(path.join(dir, 'go', 'pkg', 'mod'));
    expect(env.XDG_CACHE_HOME).toBe(path.join(dir, 'xdg-cache'));
    // The last -D wins for the JVM: Tether's.
    expect(env.MAVEN_OPTS).toBe(
      `-Xmx2g -Dmaven.repo.local=/home/me/.m2/repository -Dmaven.repo.local=${path.join(dir, 'm2', 'repository')}`,
    );
    expect(env.PLAYWRIGHT_BROWSERS_PATH).toBe(path.join(home, '.cache', 'ms-playwright'));
    expect(env.CYPRESS_CACHE_FOLDER).toBeUndefined();
    expect(cacheEnvironment(dir, { PLAYWRIGHT_BROWSERS_PATH: '/opt/browsers' }, home).PLAYWRIGHT_BROWSERS_PATH).toBeUndefined();
  });

  it('name a folder deleted while a command ran, and a full disk the command was writing a cache on', () => {
    const dir = caches();
    ensureCacheFolders(dir);
    expect(cacheTrouble(dir, 'ok')).toEqual([]);
    fs.rmSync(path.join(dir, 'pip'), { recursive: true });
    expect(cacheTrouble(dir, '')).toEqual([expect.stringMatching(/^Tether's pip cache folder .*\/pip was deleted while the command ran/)]);
    ensureCacheFolders(dir);
    const npmFull = `npm error code ENOSPC\nnpm error nospc ENOSPC: no space left on device, write '${dir}/npm/_cacache/tmp/abc'`;
    expect(cacheTrouble(dir, npmFull)).toEqual([
      expect.stringMatching(
        new RegExp(`^The command ran out of disk space writing to Tether's npm cache folder ${dir}/npm \\(.* free now\\)`),
      ),
    ]);
    // A full disk elsewhere, with room on the caches' disk, is not the caches' business.
    expect(cacheTrouble(dir, "OSError: [Errno 28] No space left on device: '/mnt/data/out.bin'")).toEqual([]);
  });
});
