import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diffBackgrounds, diffThemes, DIFF_THEME_DARK, DIFF_THEME_LIGHT } from '../../src/renderer/src/features/diff/diffThemes';

// The theme's colour tokens meet WCAG AA contrast (4.5:1 for small text) wherever the app draws them,
// so a screen is readable by construction and not by per-element fixes; e2e/accessibility.spec.ts
// checks the drawn screens with axe-core.

const theme = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/renderer/src/app/theme.css'), 'utf8');

type Rgba = [number, number, number, number];

function parseColour(text: string): Rgba {
  const hex = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(text.trim());
  if (hex) {
    const value = hex[1]!;
    const alpha = hex[2] ? parseInt(hex[2], 16) / 255 : 1;
    return [parseInt(value.slice(0, 2), 16), parseInt(value.slice(2, 4), 16), parseInt(value.slice(4, 6), 16), alpha];
  }
  const rgba = /^rgba\((\d+),\s*(\d+),\s*(\d+),\s*([\d.]+)\)$/.exec(text.trim());
  if (rgba) return [Number(rgba[1]), Number(rgba[2]), Number(rgba[3]), Number(rgba[4])];
  throw new Error(`not a colour this test reads: ${text}`);
}

/** `top` drawn over the opaque `bottom`. */
function over(bottom: Rgba, top: Rgba): Rgba {
  const alpha = top[3];
  return [0, 1, 2].map((i) => bottom[i]! * (1 - alpha) + top[i]! * alpha).concat(1) as Rgba;
}

function luminance([r, g, b]: Rgba): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

function contrast(a: Rgba, b: Rgba): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The custom properties of one block of theme.css: the light :root, or the dark one inside its media query. */
function tokens(scheme: 'light' | 'dark'): Record<string, string> {
  const dark = theme.indexOf('@media (prefers-color-scheme: dark)');
  const block = scheme === 'light' ? theme.slice(theme.indexOf(':root'), dark) : theme.slice(dark, theme.indexOf('\n}\n', dark));
  const found: Record<string, string> = {};
  for (const match of block.matchAll(/(--[\w-]+):\s*([^;]+);/g)) found[match[1]!] = match[2]!.trim();
  return found;
}

function themeTokens(scheme: 'light' | 'dark'): Record<string, string> {
  return { ...tokens('light'), ...(scheme === 'dark' ? tokens('dark') : {}) };
}

/** The surfaces text is drawn on: each background, and each under a hovered and a selected row's tint. */
const SURFACES = ['--bg', '--bg-sidebar', '--bg-panel', '--bg-raised', '--bg-code', '--bg-input'];
/** Text colours: the greys and every colour that carries meaning as text. */
const TEXT = ['--fg', '--fg-muted', '--fg-faint', '--ok', '--working', '--waiting', '--danger', '--added', '--removed'].concat([
  '--risk-low',
  '--risk-edit',
  '--risk-exec',
  '--risk-egress',
  '--unleashed',
  '--taint',
]);
const FILLS = ['--fill-waiting', '--fill-danger'];
const AA = 4.5;

describe.each(['light', 'dark'] as const)('the %s theme', (scheme) => {
  const values = themeTokens(scheme);
  const colour = (name: string) => parseColour(values[name] ?? '');
  const surfaces = SURFACES.flatMap((name) => [
    { name, rgba: colour(name) },
    { name: `${name} + --bg-hover`, rgba: over(colour(name), colour('--bg-hover')) },
    { name: `${name} + --bg-selected`, rgba: over(colour(name), colour('--bg-selected')) },
  ]);

  it('writes every text colour at 4.5:1 or more on every surface, hovered or selected', () => {
    const short: string[] = [];
    for (const text of TEXT) {
      for (const surface of surfaces) {
        const ratio = contrast(colour(text), surface.rgba);
        if (ratio < AA) short.push(`${text} on ${surface.name}: ${ratio.toFixed(2)}:1`);
      }
    }
    expect(short).toEqual([]);
  });

  it('writes white text on every fill at 4.5:1 or more', () => {
    for (const fill of FILLS) expect(contrast(colour('--on-fill'), colour(fill)), fill).toBeGreaterThanOrEqual(AA);
  });
});

describe.each([
  ['light', DIFF_THEME_LIGHT],
  ['dark', DIFF_THEME_DARK],
] as const)('the diff editor’s %s theme', (scheme, name) => {
  it('writes every token colour it sets at 4.5:1 or more on a line or word that was kept, added or removed', () => {
    const backgrounds = diffBackgrounds[scheme];
    const editor = parseColour(backgrounds.editor);
    const grounds = [
      editor,
      over(editor, parseColour(backgrounds.addedLine)),
      over(over(editor, parseColour(backgrounds.addedLine)), parseColour(backgrounds.addedText)),
      over(editor, parseColour(backgrounds.removedLine)),
      over(over(editor, parseColour(backgrounds.removedLine)), parseColour(backgrounds.removedText)),
    ];
    const short = diffThemes[name].rules.flatMap((rule) =>
      grounds
        .map((ground) => contrast(parseColour(`#${rule.foreground}`), ground))
        .filter((ratio) => ratio < AA)
        .map((ratio) => `${rule.token}: ${ratio.toFixed(2)}:1`),
    );
    expect(short).toEqual([]);
    expect(diffThemes[name].rules.length).toBeGreaterThan(0);
  });
});
