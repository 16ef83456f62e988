import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * The files in the workspace, at any depth, whose names say they hold secrets (`.env`, `.env.local`,
 * `services/api/config/.env.production`), for the read fence. ripgrep walks the tree (the sandbox
 * needs it anyway): ignore files are not honoured, since a `.env` is exactly what `.gitignore` lists;
 * `.git` and `node_modules` are passed over (git's folder is fenced on its own, and a dependency's
 * files are not the person's secrets). Run once per compiled profile, not before every command.
 */
export function findSecretFiles(workspace: string, names: readonly string[], timeoutMs = 5000): string[] {
  if (names.length === 0) return [];
  const args = ['--files', '--hidden', '--no-ignore', '--no-messages', '--null', '--no-config'];
  for (const name of names) args.push('--iglob', name.includes('/') ? name : `**/${name}`);
  args.push('--glob', '!.git/', '--glob', '!node_modules/', '.');
  const result = spawnSync('rg', args, { cwd: workspace, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 });
  // 1: nothing found. Anything else is a failure the caller must not read as "no secrets".
  if (result.status === 1 && !result.error) return [];
  if (result.status !== 0 || result.error) {
    throw new Error(
      `could not list the workspace's secret files (${names.join(', ')}) with ripgrep: ${result.error?.message ?? result.stderr.trim() ?? `exit ${result.status}`}`,
    );
  }
  return result.stdout
    .split('\0')
    .filter(Boolean)
    .map((file) => path.join(workspace, file));
}
