import path from 'node:path';
import { looksLikeSecretValue } from '../workspace/commandEnvironment';
import { DerivedSettings, readSettingsFile } from './derivedSettingsFile';
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

const SECRET = 'its value looks like a credential';

/** pip's per-user files, the first that exists is the one pip reads (XDG first). */
const USER_FILES = ['.config/pip/pip.conf', '.pip/pip.conf'];

export function derivePipConf(home: string, folder: string): LitPlace | undefined {
  for (const relative of USER_FILES) {
    const source = path.join(home, relative);
    const text = readSettingsFile(source);
    if (text === undefined) continue;
    const derived = new DerivedSettings(
      `Derived by Tether from ~/${relative} for sandboxed commands: only where pip finds packages and how it installs.`,
    );
    // Whether the line before was a setting, and a kept one: an indented line continues its value.
    let continuing = false;
    let keeping = false;
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      if (continuing && /^\s/.test(raw) && line !== '') {
        if (!keeping) continue;
        if (looksLikeSecretValue(line)) derived.leaveOut(SECRET);
        else derived.keep(`    ${line}`);
        continue;
      }
      continuing = false;
      if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
      if (/^\[[\w.-]+\]$/.test(line)) {
        derived.keep(line);
        continue;
      }
      const at = line.search(/[=:]/);
      const key = (at < 0 ? line : line.slice(0, at)).trim().toLowerCase();
      const value = at < 0 ? '' : line.slice(at + 1).trim();
      const why = !CARRIED.has(key) ? 'not a setting sandboxed commands are given' : looksLikeSecretValue(value) ? SECRET : undefined;
      continuing = true;
      keeping = why === undefined;
      if (why === undefined) derived.keep(`${key} = ${value}`);
      else derived.leaveOut(why);
    }
    return { source: derived.write(folder, 'pip.conf'), dest: source };
  }
  return undefined;
}
