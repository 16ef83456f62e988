import { describe, expect, it } from 'vitest';
import { ownTextChanges, type TextStep } from './lineOwnership';

const lines = (...items: string[]) => items.map((item) => `${item}\n`).join('');
const base = lines('one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight');
const mine = (text: string | null): TextStep => ({ by: 'session', text });
const theirs = (text: string | null): TextStep => ({ by: 'other', text });

describe('which lines a session wrote', () => {
  it('shows the session’s own edit against the file as it found it', () => {
    const edited = base.replace('three', 'THREE');
    expect(ownTextChanges(base, [mine(edited)])).toEqual({ origin: base, current: edited });
  });

  it('keeps another’s edit, made before or after, out of the session’s change', () => {
    const theirsFirst = base.replace('seven', 'SEVEN');
    const both = theirsFirst.replace('two', 'TWO');
    expect(ownTextChanges(base, [theirs(theirsFirst), mine(both)])).toEqual({ origin: theirsFirst, current: both });

    const mineFirst = base.replace('two', 'TWO');
    const after = mineFirst.replace('eight', 'EIGHT').replace('one\n', '');
    expect(ownTextChanges(base, [mine(mineFirst), theirs(after)])).toEqual({ origin: after.replace('TWO', 'two'), current: after });
  });

  it('owns nothing when only others (a person, another session) changed the file', () => {
    const hand = base.replace('four', 'by hand');
    expect(ownTextChanges(base, [theirs(hand)])).toEqual({ origin: hand, current: hand });
    expect(ownTextChanges(base, [theirs(null)])).toEqual({ origin: null, current: null });
    expect(ownTextChanges(null, [theirs('new\n')])).toEqual({ origin: 'new\n', current: 'new\n' });
  });

  it('gives up the session’s lines that someone else rewrote, and only those blocks', () => {
    const edited = base.replace('two', 'TWO').replace('six', 'SIX');
    const overwritten = edited.replace('TWO', 'theirs');
    expect(ownTextChanges(base, [mine(edited), theirs(overwritten)])).toEqual({
      origin: overwritten.replace('SIX', 'six'),
      current: overwritten,
    });
    // A line written inside a replaced block also ends the claim: the block is no longer what the session wrote.
    const replaced = base.replace('three\nfour\n', 'A\nB\n');
    const inside = replaced.replace('A\n', 'A\nx\n');
    expect(ownTextChanges(base, [mine(replaced), theirs(inside)])).toEqual({ origin: inside, current: inside });
  });

  it('cuts an added-only block that someone wrote into, keeping the session’s lines on both sides', () => {
    const added = base.replace('four\n', 'four\nnew 1\nnew 2\nnew 3\n');
    const cut = added.replace('new 2\n', 'theirs\n');
    expect(ownTextChanges(base, [mine(added), theirs(cut)])).toEqual({ origin: base.replace('four\n', 'four\ntheirs\n'), current: cut });
  });

  it('merges the session’s steps in one place into one change, and forgets a change it undid itself', () => {
    const first = base.replace('three', 'THREE');
    const second = first.replace('four', 'FOUR');
    expect(ownTextChanges(base, [mine(first), mine(second)])).toEqual({ origin: base, current: second });
    expect(ownTextChanges(base, [mine(first), mine(base)])).toEqual({ origin: base, current: base });
    // Undone after someone else wrote elsewhere: still nothing of the session's.
    const elsewhere = first.replace('eight', 'EIGHT');
    expect(ownTextChanges(base, [mine(first), theirs(elsewhere), mine(elsewhere.replace('THREE', 'three'))])).toEqual({
      origin: base.replace('eight', 'EIGHT'),
      current: base.replace('eight', 'EIGHT'),
    });
  });

  it('follows files the session created or deleted', () => {
    expect(ownTextChanges(null, [mine('made\n')])).toEqual({ origin: null, current: 'made\n' });
    expect(ownTextChanges(base, [mine(null)])).toEqual({ origin: base, current: null });
    expect(ownTextChanges(base, [mine(null), mine(base)])).toEqual({ origin: base, current: base });
    expect(ownTextChanges(null, [mine('made\n'), mine(null)])).toEqual({ origin: null, current: null });
    // Someone else wrote into the session's new file: reverting the session's lines leaves theirs.
    expect(ownTextChanges(null, [mine('made\n'), theirs('made\ntheirs\n')])).toEqual({ origin: 'theirs\n', current: 'made\ntheirs\n' });
    // Someone else deleted, or re-created, the file: nothing of the session's stands.
    expect(ownTextChanges(base, [mine(base.replace('one', '1')), theirs(null)])).toEqual({ origin: null, current: null });
    expect(ownTextChanges(base, [mine(null), theirs('again\n')])).toEqual({ origin: 'again\n', current: 'again\n' });
  });

  it('keeps bytes exactly: line endings and a missing final newline', () => {
    const crlf = 'a\r\nb\r\nc';
    const edited = 'a\r\nB\r\nc';
    const later = 'a\r\nB\r\nc\r\nd';
    expect(ownTextChanges(crlf, [mine(edited), theirs(later)])).toEqual({ origin: 'a\r\nb\r\nc\r\nd', current: later });
  });

  it('keeps a deletion by the session while others write on one side of it', () => {
    const removed = base.replace('four\nfive\n', '');
    const after = removed.replace('three\n', 'three\nx\n');
    const result = ownTextChanges(base, [mine(removed), theirs(after)]);
    expect(result?.current).toBe(after);
    expect(result?.origin).toMatch(/^one\ntwo\nthree\n(x\nfour\nfive\n|four\nfive\nx\n)six\n/);
    // Rewritten on both sides: the place of the deletion is someone else's now.
    const around = removed.replace('three\nsix\n', 'THREE\nSIX\n');
    expect(ownTextChanges(base, [mine(removed), theirs(around)])).toEqual({ origin: around, current: around });
  });
});
