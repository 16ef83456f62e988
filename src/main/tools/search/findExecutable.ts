import fs from 'node:fs';
import path from 'node:path';

const found = new Map<string, string | null>();

/** The full path of `name` on PATH (with PATHEXT on Windows), or null; remembered per PATH value. */
export function findExecutable(name: string): string | null {
  const searchPath = process.env.PATH ?? '';
  const key = `${name}\0${searchPath}`;
  const cached = found.get(key);
  if (cached !== undefined) return cached;
  const extensions = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  let result: string | null = null;
  outer: for (const folder of searchPath.split(path.delimiter).filter(Boolean)) {
    for (const extension of extensions) {
      const candidate = path.join(folder, name + extension);
      try {
        fs.accessSync(candidate, fs.constants.X_OK);
        if (fs.statSync(candidate).isFile()) {
          result = candidate;
          break outer;
        }
      } catch {
        // Not here; keep looking.
      }
    }
  }
  found.set(key, result);
  return result;
}
