import fs from 'node:fs';
import path from 'node:path';
import { looksLikeSecretValue } from '../workspace/commandEnvironment';
import type { LitPlace } from './litHomeFolders';

/**
 * The person's pip configuration as commands see it inside the fence, as derivedNpmrc.ts does for npm:
 * where pip finds packages (`index-url`, `extra-index-url`, `find-links`, `trusted-host`) and how it
 * installs, so `pip install` resolves inside as it does outside. The file is in the dark home (an
 * index URL can carry a password), so a copy with only those settings is written into Tether's data
 * folder and bound where pip looks (Linux) or named by PIP_CONFIG_FILE (macOS). A value that looks
 * like a credential (a URL with a password) is left out, as are proxies and client certificates;
 * dropped lines are counted, not named.
 */
const CARRIED = new Set([
  'index-url',
  'extra-index-url',
  'find-links',
  'trusted-host',
  'no-index',
  'timeout',
  'retries',
  'disable-pip-version-check',
  'no-input',
  'prefer-binary',
  'only-binary',
  'no-binary',
  'require-virtualenv',
  'break-system-packages',
  'no-cache-dir',
  'progress-bar',
  'quiet',
  'verbose',
  'root-user-action',
  'use-feature',
  'use-deprecated',
]);

/** pip's per-user files, the first that exists is the one pip reads (XDG first). */
const USER_FILES = ['.config/pip/pip.conf', '.pip/pip.conf'];

export function derivePipConf(home: string, folder: string): LitPlace | undefined {
  for (const relative of USER_FILES) {
    const source = path.join(home, relative);
    let text: string;
    try {
      if (!fs.statSync(source).isFile()) continue;
      text = fs.readFileSync(source, 'utf8');
    } catch {
      continue;
    }
    const kept: string[] = [
      `# Derived by Tether from ~/${relative} for sandboxed commands: only where pip finds packages and how it installs.`,
    ];
    const dropped = new Map<string, number>();
    let continuing = false;
    let keeping = false;
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      // A value continued on an indented line belongs to the setting above it.
      if (continuing && /^\s/.test(raw) && line !== '') {
        if (keeping && !looksLikeSecretValue(line)) kept.push(`    ${line}`);
        else if (keeping) dropped.set('its value looks like a credential', (dropped.get('its value looks like a credential') ?? 0) + 1);
        continue;
      }
      continuing = false;
      if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
      if (/^\[[\w.-]+\]$/.test(line)) {
        kept.push(line);
        continue;
      }
      const at = line.search(/[=:]/);
      const key = (at < 0 ? line : line.slice(0, at)).trim().toLowerCase();
      const value = at < 0 ? '' : line.slice(at + 1).trim();
      const why = !CARRIED.has(key)
        ? 'not a setting sandboxed commands are given'
        : looksLikeSecretValue(value)
          ? 'its value looks like a credential'
          : undefined;
      continuing = true;
      keeping = why === undefined;
      if (why === undefined) kept.push(`${key} = ${value}`);
      else dropped.set(why, (dropped.get(why) ?? 0) + 1);
    }
    for (const [why, count] of dropped) kept.push(`# ${count} ${count === 1 ? 'line' : 'lines'} left out: ${why}`);
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const derived = path.join(folder, 'pip.conf');
    fs.writeFileSync(derived, `${kept.join('\n')}\n`, { mode: 0o600 });
    return { source: derived, dest: source };
  }
  return undefined;
}
