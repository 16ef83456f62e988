import { describe, expect, it } from 'vitest';
import { initShellParser, isShellParserReady, parseShell } from './parser';

describe('the shell parser', () => {
  it('loads tree-sitter-bash from the installed packages once, however many times it is asked', async () => {
    const first = initShellParser();
    const second = initShellParser();
    await Promise.all([first, second]);
    await initShellParser();
    expect(isShellParserReady()).toBe(true);
  });

  it('parses synchronously once loaded, and marks syntax errors', async () => {
    await initShellParser();
    const good = parseShell('ls -la | wc -l');
    expect(good.rootNode.type).toBe('program');
    expect(good.rootNode.hasError).toBe(false);
    good.delete();
    const bad = parseShell('ls &&& rm');
    expect(bad.rootNode.hasError).toBe(true);
    bad.delete();
  });
});
