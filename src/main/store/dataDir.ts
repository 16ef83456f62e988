import os from 'node:os';
import path from 'node:path';

/**
 * Where Tether keeps its database when no --data-dir is given: $TETHER_HOME, else
 * $XDG_DATA_HOME/tether, else the platform's usual place for application data.
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  const explicit = nonEmpty(env.TETHER_HOME);
  if (explicit) return path.resolve(explicit);
  // The XDG spec says a relative value is invalid and must be ignored.
  const xdg = nonEmpty(env.XDG_DATA_HOME);
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'tether');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Tether');
  if (platform === 'win32') return path.join(nonEmpty(env.APPDATA) ?? path.join(home, 'AppData', 'Roaming'), 'Tether');
  return path.join(home, '.local', 'share', 'tether');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
