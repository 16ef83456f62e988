import { describe, expect, it } from 'vitest';
import { StderrTail } from './stderrTail';

describe("a server's stderr tail", () => {
  it('keeps the last lines, joining chunks that split a line', () => {
    const tail = new StderrTail(3);
    tail.push('one\ntw');
    tail.push('o\nthree\nfour\nfi');
    expect(tail.tail()).toEqual(['three', 'four', 'fi']);
    expect(tail.block()).toBe('\nIt printed on stderr:\n  three\n  four\n  fi');
  });

  it('cuts an endless line, and says when nothing was printed', () => {
    const tail = new StderrTail(5, 10);
    expect(tail.block()).toBe(' It printed nothing on stderr.');
    tail.push('x'.repeat(25));
    expect(tail.tail()).toEqual([`${'x'.repeat(10)}…`]);
  });
});
