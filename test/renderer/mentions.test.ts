import { describe, expect, it } from 'vitest';
import { activeMention, applyMention } from '../../src/renderer/src/features/chat/mentions';

// @-mentions in the task box: when the caret is in one, and what picking a file does to the text.

describe('@-mentions', () => {
  it('finds the mention the caret is in, at the start, after a space, a bracket or a quote', () => {
    expect(activeMention('@src/a', 6)).toEqual({ start: 0, query: 'src/a' });
    expect(activeMention('look at @src/a', 14)).toEqual({ start: 8, query: 'src/a' });
    expect(activeMention('see (@RE', 8)).toEqual({ start: 5, query: 'RE' });
    expect(activeMention('fix @', 5)).toEqual({ start: 4, query: '' });
    expect(activeMention('line one\n@pkg', 13)).toEqual({ start: 9, query: 'pkg' });
  });

  it('finds none in an e-mail address, after a space, or before the @', () => {
    expect(activeMention('mail me@example.com', 19)).toBeNull();
    expect(activeMention('@src/a and more', 15)).toBeNull();
    expect(activeMention('@src/a', 0)).toBeNull();
    expect(activeMention('no mention here', 15)).toBeNull();
    expect(activeMention('@@x', 3)).toBeNull();
  });

  it('replaces the mention (and the rest of its word) with the picked path and a space, the caret after it', () => {
    expect(applyMention('look at @src/a please', { start: 8, query: 'src/a' }, 'src/app.tsx')).toEqual({
      text: 'look at @src/app.tsx please',
      caret: 21,
    });
    expect(applyMention('@sr', { start: 0, query: 'sr' }, 'src/a.ts')).toEqual({ text: '@src/a.ts ', caret: 10 });
    // The caret was mid-word: the word's tail goes too.
    expect(applyMention('@src/aXYZ tail', { start: 0, query: 'src/a' }, 'src/a.ts')).toEqual({ text: '@src/a.ts tail', caret: 10 });
  });
});
