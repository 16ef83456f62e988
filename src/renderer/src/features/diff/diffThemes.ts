import type { editor } from 'monaco-editor';

/**
 * The diff editor's two themes: Monaco's own (vs, vs-dark) with every token colour that read below
 * 4.5:1 moved toward black (light) or white (dark) until it reads at 4.6:1 or more on the editor's
 * background, on a changed line and on a changed word of either side (WCAG AA for small text). The
 * changed lines are tinted more lightly than Monaco's default, in the app's own added and removed
 * colours, so fewer tokens need moving. Each comment is Monaco's colour. test/renderer/themeContrast.test.ts
 * checks every rule here against the same backgrounds.
 */

export const DIFF_THEME_LIGHT = 'tether-light';
export const DIFF_THEME_DARK = 'tether-dark';

/** What the diff draws a line or a word on; the overlays stack on the background (a word on its line). */
export const diffBackgrounds = {
  light: { editor: '#ffffff', addedLine: '#2ea04326', addedText: '#2ea04333', removedLine: '#f8514926', removedText: '#f8514933' },
  dark: { editor: '#1e1e1e', addedLine: '#2ea04326', addedText: '#2ea04333', removedLine: '#f8514926', removedText: '#f8514933' },
} as const;

function colours(backgrounds: (typeof diffBackgrounds)['light' | 'dark']): editor.IColors {
  return {
    'editor.background': backgrounds.editor,
    'diffEditor.insertedLineBackground': backgrounds.addedLine,
    'diffEditor.insertedTextBackground': backgrounds.addedText,
    'diffEditor.removedLineBackground': backgrounds.removedLine,
    'diffEditor.removedTextBackground': backgrounds.removedText,
  };
}

export const diffThemes: Record<typeof DIFF_THEME_LIGHT | typeof DIFF_THEME_DARK, editor.IStandaloneThemeData> = {
  [DIFF_THEME_LIGHT]: {
    base: 'vs',
    inherit: true,
    colors: colours(diffBackgrounds.light),
    rules: [
      { token: 'invalid', foreground: 'aa2929' }, // cd3131
      { token: 'variable.predefined', foreground: '3f5896' }, // 4864aa
      { token: 'constant', foreground: 'b70000' }, // dd0000
      { token: 'comment', foreground: '006a00' }, // 008000
      { token: 'number', foreground: '076744' }, // 098658
      { token: 'annotation', foreground: '5a5a5a' }, // 808080
      { token: 'type', foreground: '006565' }, // 008080
      { token: 'tag.id.pug', foreground: '3d5b84' }, // 4f76ac
      { token: 'tag.class.pug', foreground: '3d5b84' }, // 4f76ac
      { token: 'metatag', foreground: 'b80000' }, // e00000
      { token: 'metatag.content.html', foreground: 'b80000' }, // ff0000
      { token: 'metatag.html', foreground: '5a5a5a' }, // 808080
      { token: 'metatag.xml', foreground: '5a5a5a' }, // 808080
      { token: 'attribute.name', foreground: 'b80000' }, // ff0000
      { token: 'attribute.value.number', foreground: '076744' }, // 098658
      { token: 'attribute.value.unit', foreground: '076744' }, // 098658
      { token: 'string.sql', foreground: 'b80000' }, // ff0000
      { token: 'keyword.flow', foreground: '9700bc' }, // af00db
      { token: 'operator.scss', foreground: '5a5a5a' }, // 666666
      { token: 'operator.sql', foreground: '505b67' }, // 778899
      { token: 'operator.swift', foreground: '5a5a5a' }, // 666666
      { token: 'predefined.sql', foreground: 'a100a1' }, // c700c7
    ],
  },
  [DIFF_THEME_DARK]: {
    base: 'vs-dark',
    inherit: true,
    colors: colours(diffBackgrounds.dark),
    rules: [
      { token: 'invalid', foreground: 'f88f8f' }, // f44747
      { token: 'variable', foreground: '77b2e0' }, // 74b0df
      { token: 'variable.predefined', foreground: '9eadd2' }, // 4864aa
      { token: 'constant', foreground: '7bb2df' }, // 569cd6
      { token: 'comment', foreground: '98b48c' }, // 608b4e
      { token: 'number.hex', foreground: '6abba1' }, // 5bb498
      { token: 'regexp', foreground: 'd09fbc' }, // b46695
      { token: 'annotation', foreground: 'de9c9c' }, // cc6666
      { token: 'delimiter.html', foreground: 'acacac' }, // 808080
      { token: 'delimiter.xml', foreground: 'acacac' }, // 808080
      { token: 'tag', foreground: '7bb2df' }, // 569cd6
      { token: 'tag.id.pug', foreground: '97aece' }, // 4f76ac
      { token: 'tag.class.pug', foreground: '97aece' }, // 4f76ac
      { token: 'meta.scss', foreground: 'b8ac8e' }, // a79873
      { token: 'meta.tag', foreground: 'd5a08b' }, // ce9178
      { token: 'metatag', foreground: 'e7979a' }, // dd6a6f
      { token: 'metatag.html', foreground: '7bb2df' }, // 569cd6
      { token: 'metatag.xml', foreground: '7bb2df' }, // 569cd6
      { token: 'string.value.json', foreground: 'd5a08b' }, // ce9178
      { token: 'attribute.value', foreground: 'd5a08b' }, // ce9178
      { token: 'string', foreground: 'd5a08b' }, // ce9178
      { token: 'string.sql', foreground: 'ff8a8a' }, // ff0000
      { token: 'keyword', foreground: '7bb2df' }, // 569cd6
      { token: 'keyword.flow', foreground: 'cf9ccb' }, // c586c0
      { token: 'keyword.json', foreground: 'd5a08b' }, // ce9178
      { token: 'keyword.flow.scss', foreground: '7bb2df' }, // 569cd6
      { token: 'operator.scss', foreground: 'acacac' }, // 909090
      { token: 'operator.sql', foreground: 'a3aeba' }, // 778899
      { token: 'operator.swift', foreground: 'acacac' }, // 909090
      { token: 'predefined.sql', foreground: 'ff75ff' }, // ff00ff
    ],
  },
};
