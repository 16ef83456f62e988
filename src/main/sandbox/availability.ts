import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Whether commands can run in an OS sandbox here, and if not, why, in words a person can act on. */
export type SandboxAvailability = { available: true } | { available: false; reason: string };

export interface AvailabilityInput {
  platform?: NodeJS.Platform;
  /** The PATH the sandbox's helpers are looked up on. */
  pathEnv?: string;
}

const cache = new Map<string, SandboxAvailability>();

/**
 * Looks for what the sandbox needs (bubblewrap, socat and ripgrep on Linux; sandbox-exec on macOS)
 * and, on Linux, starts one empty bubblewrap to see that user namespaces work. The answer is kept per
 * platform and PATH: it does not change while the app runs, and the probe costs a process.
 */
export function checkSandboxAvailability(input: AvailabilityInput = {}): SandboxAvailability {
  const platform = input.platform ?? process.platform;
  const pathEnv = input.pathEnv ?? process.env.PATH ?? '';
  const key = `${platform}\0${pathEnv}`;
  const known = cache.get(key);
  if (known) return known;
  const answer = probe(platform, pathEnv);
  cache.set(key, answer);
  return answer;
}

function probe(platform: NodeJS.Platform, pathEnv: string): SandboxAvailability {
  if (platform === 'win32') {
    return {
      available: false,
      reason:
        'Tether cannot sandbox commands on Windows yet. Run Tether in WSL 2 (with bubblewrap installed) to have every command fenced.',
    };
  }
  if (platform === 'darwin') {
    return findOnPath('sandbox-exec', pathEnv) || fs.existsSync('/usr/bin/sandbox-exec')
      ? { available: true }
      : { available: false, reason: 'macOS sandbox-exec was not found in /usr/bin; commands cannot be sandboxed on this Mac.' };
  }
  if (platform !== 'linux')
    return { available: false, reason: `Tether cannot sandbox commands on ${platform}; only Linux and macOS are supported.` };

  const missing = (['bwrap', 'socat', 'rg'] as const).filter((tool) => !findOnPath(tool, pathEnv));
  if (missing.length > 0) {
    const names = missing.map((tool) => PACKAGE[tool]).join(', ');
    return {
      available: false,
      reason: `The command sandbox needs ${names}, which ${missing.length === 1 ? 'is' : 'are'} not installed (not found on PATH). Install ${missing.length === 1 ? 'it' : 'them'} (Debian/Ubuntu: apt-get install ${missing.map((tool) => APT[tool]).join(' ')}) and restart Tether.`,
    };
  }
  const bwrap = findOnPath('bwrap', pathEnv) as string;
  const run = spawnSync(bwrap, ['--unshare-user', '--unshare-net', '--ro-bind', '/', '/', 'true'], {
    timeout: 5000,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (run.error || run.status !== 0) {
    const said = (run.stderr ?? '').trim().split('\n')[0] ?? '';
    return {
      available: false,
      reason:
        `bubblewrap is installed but cannot create a sandbox here${said ? ` (${said})` : run.error ? ` (${run.error.message})` : ''}: ` +
        'unprivileged user namespaces look disabled. Enable them (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu 24.04+ kernel.apparmor_restrict_unprivileged_userns=0) and restart Tether.',
    };
  }
  return { available: true };
}

const PACKAGE = { bwrap: 'bubblewrap (bwrap)', socat: 'socat', rg: 'ripgrep (rg)' } as const;
const APT = { bwrap: 'bubblewrap', socat: 'socat', rg: 'ripgrep' } as const;

function findOnPath(name: string, pathEnv: string): string | undefined {
  for (const folder of pathEnv.split(path.delimiter)) {
    if (!folder) continue;
    const candidate = path.join(folder, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
