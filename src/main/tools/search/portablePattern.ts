import { patternPieces } from './patternPieces';

/**
 * Rewrites the few PCRE constructs whose meaning depends on how an engine hands it a line:
 * `\A`, `\z` and `\Z` (ripgrep includes the line's '\n' in the subject, git grep does not, so
 * `\z` matches in one and not the other). Outside character classes they become `^` and `$`,
 * which every backend applies to the line alone. Everything else is passed on untouched.
 */
export function portablePattern(pattern: string): string {
  return patternPieces(pattern)
    .pieces.map((piece) => {
      if (piece.kind !== 'escape' || piece.inClass) return piece.raw;
      if (piece.letter === 'A') return '^';
      return piece.letter === 'z' || piece.letter === 'Z' ? '$' : piece.raw;
    })
    .join('');
}
