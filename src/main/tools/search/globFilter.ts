import picomatch from 'picomatch';

/** The `glob` argument of search_code, compiled. */
export interface GlobFilter {
  /** The glob as given, cleaned ('./' and a leading '/' dropped, a trailing '/' meaning everything below). */
  source: string;
  /** Whether a path (relative to the root, '/'-separated) is selected. */
  matches(path: string): boolean;
  /**
   * For a glob that only looks at file names (`*.ts`, `**\/*.test.ts`, `!*.md`): that name glob
   * and whether it excludes, so ripgrep can filter by it without overriding .gitignore.
   */
  nameGlob: { glob: string; negated: boolean } | null;
  /** The folder every selected path lies in ('' when the glob can match anywhere). */
  base: string;
}

/**
 * Compiles a glob with .gitignore-like rules: a glob without '/' is matched against file names at
 * any depth; one with '/' against the whole path from the workspace root. `*` also matches names
 * starting with a dot. A leading '!' selects the files that do not match.
 */
export function compileGlob(glob: string): GlobFilter {
  const negated = glob.startsWith('!');
  let body = negated ? glob.slice(1) : glob;
  body = body.replace(/^(\.\/)+/, '').replace(/^\/+/, '');
  if (body.endsWith('/')) body += '**';
  const source = (negated ? '!' : '') + body;
  const nameOnly = body.replace(/^(\*\*\/)+/, '');
  const byName = !nameOnly.includes('/');
  const test = byName ? picomatch(nameOnly, { dot: true }) : picomatch(body, { dot: true });
  const matches = byName
    ? (path: string) => test(path.slice(path.lastIndexOf('/') + 1)) !== negated
    : (path: string) => test(path) !== negated;
  const segments = body.split('/');
  const literalSegments: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (/[*?[\]{}()!+@\\]/.test(segment)) break;
    literalSegments.push(segment);
  }
  return {
    source,
    matches,
    nameGlob: byName ? { glob: nameOnly, negated } : null,
    base: negated || byName ? '' : literalSegments.join('/'),
  };
}
