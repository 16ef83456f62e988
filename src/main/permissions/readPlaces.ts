import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

/**
 * Where a path a command line names really leads, as the kernel resolves it: each symlink is
 * followed before the `..` after it is applied (`outdir/../x`, with outdir a link elsewhere, is x
 * beside where outdir points, not inside the workspace), and a glob is expanded the way bash does
 * (a leading dot matched only by a dot; no `**`), so a match that is a symlink out is seen.
 */

/** How many names a glob may expand to before the engine stops looking and asks. */
const MAX_MATCHES = 500;

/** The path with every symlink resolved in order, `..` applied to what each resolved to. */
export function physicalPath(raw: string): string {
  let current: string = path.sep;
  for (const part of raw.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    try {
      current = fs.realpathSync.native(next);
    } catch {
      current = next;
    }
  }
  return current;
}

/**
 * The files an absolute path with glob characters names, or null when there are more than the
 * engine looks at. A pattern that matches nothing stays as written (bash passes it on unchanged).
 */
export function expandGlob(raw: string): string[] | null {
  let places: string[] = [path.sep];
  for (const part of raw.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' || !/[*?[]/.test(part)) {
      places = places.map((place) => path.join(place, part));
      continue;
    }
    const matches = picomatch(part, { dot: part.startsWith('.'), nobrace: true, noextglob: true, noglobstar: true });
    const next: string[] = [];
    for (const place of places) {
      let names: string[];
      try {
        names = fs.readdirSync(place);
      } catch {
        continue;
      }
      for (const name of names) {
        if (!matches(name)) continue;
        next.push(path.join(place, name));
        if (next.length > MAX_MATCHES) return null;
      }
    }
    if (next.length === 0) return [raw];
    places = next;
  }
  return places;
}
