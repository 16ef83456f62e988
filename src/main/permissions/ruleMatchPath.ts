import path from 'node:path';
import picomatch from 'picomatch';

/**
 * The specifier of a path rule, gitignore-style (the way people already write "which files"):
 *   `.env`, `*.pem`        no slash: a name at any depth in the workspace
 *   `src/**`, `/build`     a slash: anchored at the workspace root (`./x` is the same as `/x`)
 *   `//etc/hosts`          an absolute path
 *   `~/.ssh/**`            under the home folder
 * A match on a folder covers everything inside it (`.git` covers `.git/config`), as in .gitignore.
 * Globs are picomatch's (`*` within one name, `**` across folders, `{a,b}`, `!(x)`), dot files included.
 */

export type PathBase = 'workspace' | 'anywhere' | 'absolute' | 'home';

export interface PathPattern {
  /** The specifier as written, trimmed. */
  text: string;
  base: PathBase;
  /** The glob with its prefix removed and no leading or trailing slash. */
  glob: string;
}

export class PathPatternError extends Error {
  override readonly name = 'PathPatternError';
}

export function parsePathPattern(specifier: string): PathPattern {
  const text = specifier.trim();
  let base: PathBase;
  let rest: string;
  if (text.startsWith('//')) {
    base = 'absolute';
    rest = text.slice(2);
  } else if (text === '~' || text.startsWith('~/')) {
    base = 'home';
    rest = text.slice(2);
  } else if (text.startsWith('~')) {
    throw new PathPatternError(
      `the prefix "${text.split('/')[0]}" is unknown; write ~/ for your home folder or //abs/path for an absolute path`,
    );
  } else if (text.startsWith('/')) {
    base = 'workspace';
    rest = text.slice(1);
  } else if (text.startsWith('./')) {
    base = 'workspace';
    rest = text.slice(2);
  } else {
    rest = text;
    base = rest.replace(/\/+$/, '').includes('/') ? 'workspace' : 'anywhere';
  }
  rest = rest.replace(/\/+$/, '');
  if (rest.split('/').includes('..')) {
    throw new PathPatternError('".." cannot appear in a path rule; write //abs/path or ~/path for a place outside the workspace');
  }
  if (rest === '' && base !== 'home' && base !== 'absolute') {
    throw new PathPatternError('it names no path; write the bare tool name to match every path');
  }
  return { text, base, glob: rest };
}

/** Tests an absolute, canonical path against a compiled pattern. */
export type PathMatcher = (absolutePath: string) => boolean;

/**
 * The matcher for a rule's path pattern. Its globs are compiled when it is first asked about a path:
 * a session compiles every default and configured rule at start (some 3 ms of picomatch), and a run
 * that only talks may never ask.
 */
export function compilePathPattern(pattern: PathPattern, places: { workspaceRoot: string; home: string }): PathMatcher {
  let matcher: PathMatcher | undefined;
  return (absolutePath) => (matcher ??= compileNow(pattern, places))(absolutePath);
}

function compileNow(pattern: PathPattern, places: { workspaceRoot: string; home: string }): PathMatcher {
  const options = { dot: true };
  const { glob } = pattern;
  if (pattern.base === 'workspace' || pattern.base === 'anywhere') {
    const globs = pattern.base === 'anywhere' ? [`**/${glob}`, `**/${glob}/**`] : [glob, `${glob}/**`];
    const test = picomatch(globs, options);
    const root = places.workspaceRoot;
    return (absolutePath) => {
      const relative = path.relative(root, absolutePath);
      if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return false;
      return test(relative.split(path.sep).join('/'));
    };
  }
  const prefix = pattern.base === 'home' ? places.home.replace(/\/+$/, '') : '';
  const anchored = glob === '' ? prefix || '/' : `${prefix}/${glob}`;
  const test = picomatch([anchored, `${anchored.replace(/\/$/, '')}/**`], options);
  return (absolutePath) => test(absolutePath.split(path.sep).join('/'));
}

/** Escapes a literal path so picomatch reads it as that one path (Next.js `[id].tsx` and friends). */
export function escapeGlob(literal: string): string {
  return literal.replace(/[*?[\]{}()!+@\\]/g, '\\$&');
}
