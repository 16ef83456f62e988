import type { Root } from 'hast';
import { createLowlight } from 'lowlight';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

// The languages a coding agent's answers mostly hold (with their aliases: ts, js, sh, py, html, yml…).
// This module is loaded on demand, the first time a code block names a language.
const lowlight = createLowlight({
  bash,
  c,
  cpp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
});

/** Past this a block is drawn plain: highlighting it would hold up the frame, and nobody reads 50 kB of colour. */
export const MAX_HIGHLIGHT_CHARS = 50_000;

/**
 * The code as highlight.js tokens, in a hast tree of spans and text (never HTML), or null when the
 * language is not one registered here or the block is too long.
 */
export function highlightCode(code: string, language: string): Root | null {
  if (!language || code.length > MAX_HIGHLIGHT_CHARS || !lowlight.registered(language)) return null;
  try {
    return lowlight.highlight(language, code);
  } catch {
    // A grammar that trips on odd input leaves the block plain rather than breaking the message.
    return null;
  }
}
