import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

/**
 * The places a command line names for reading: a glob is expanded the way bash does (a leading dot
 * matched only by a dot; no `**`), so a match that is a symlink out is seen. Where each then leads,
 * as the kernel resolves it, is workspace/filePaths.ts's physicalPath.
 */

/** How many names a glob may expand to before the engine stops looking and asks. */
const MAX_MATCHES = 500;

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

/**
 * The first name a glob expanded to whose part where the glob begins starts with a dash: a word the
 * program will read as an option (`*` matching `--files0-from=list`). `raw` is the pattern as an
 * absolute path, `names` what expandGlob made of it.
 */
export function matchReadAsOption(raw: string, names: readonly string[]): string | undefined {
  const parts = raw.split('/').filter((part) => part !== '' && part !== '.');
  const at = parts.findIndex((part) => /[*?[]/.test(part));
  if (at < 0) return undefined;
  for (const name of names) {
    const part = name.split('/').filter((each) => each !== '')[at];
    if (part?.startsWith('-')) return part;
  }
  return undefined;
}
