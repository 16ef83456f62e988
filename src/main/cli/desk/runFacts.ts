import { hostname } from 'node:os';
import path from 'node:path';
import { GUARD_CONFIG, gitEnv, runGit } from '../../workspace/git';

/** Where a remote run is, as it tells the desk: the machine, the repository and the branch. */
export interface RunFacts {
  machine: string;
  repository: string;
  branch: string;
}

/**
 * The repository is its origin's address without any credentials in it (a CI checkout often has a
 * token in the URL), else the folder's name; the branch is empty when detached or not a repository.
 * Git reads only here (no status, nothing a repository's config could turn into a program).
 */
export async function runFacts(workspace: string): Promise<RunFacts> {
  const git = async (args: string[]): Promise<string> => {
    try {
      const run = await runGit([...GUARD_CONFIG, ...args], { cwd: workspace, env: gitEnv() });
      return run.stdout.toString('utf8').trim();
    } catch {
      return '';
    }
  };
  const [origin, branch] = await Promise.all([git(['remote', 'get-url', 'origin']), git(['rev-parse', '--abbrev-ref', 'HEAD'])]);
  return {
    machine: hostname(),
    repository: withoutCredentials(origin) || path.basename(workspace),
    branch: branch === 'HEAD' ? '' : branch,
  };
}

/** `https://x-access-token:abc@github.com/o/r.git` → `https://github.com/o/r.git`; scp-like addresses keep their user. */
export function withoutCredentials(address: string): string {
  try {
    const url = new URL(address);
    if (url.protocol === 'file:') return address;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return address;
  }
}
