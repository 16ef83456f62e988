import { describe, expect, it } from 'vitest';
import { analyzeCommand } from './analyzeCommand';

// Its own file: vitest gives every test file fresh modules, so the parser here was never loaded.
describe('analyzeCommand before initShellParser', () => {
  it('throws an error that says what to do', () => {
    expect(() => analyzeCommand('ls', { cwd: '/tmp', workspaceRoot: '/tmp' })).toThrow(/await initShellParser\(\)/);
  });
});
