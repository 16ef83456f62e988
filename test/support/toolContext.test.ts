import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeToolContext } from './toolContext';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-ctx-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('makeToolContext', () => {
  it('guards paths with the real workspace', () => {
    const ctx = makeToolContext(root);
    expect(ctx.workspace.root).toBe(root);
    expect(() => ctx.workspace.resolve('../x')).toThrow(/outside the workspace/);
  });

  it('has a terminal that fails loudly unless one is given', async () => {
    const ctx = makeToolContext(root);
    await expect(ctx.terminal.run({ command: 'true', cwd: root, timeoutMs: 1000, signal: ctx.signal })).rejects.toThrow(/no terminal/);
  });

  it('collects output chunks and plans, and aborts its signal', () => {
    const ctx = makeToolContext(root);
    ctx.onOutput('a');
    ctx.onOutput('b');
    ctx.setPlan([{ step: 'x', status: 'pending' }]);
    expect(ctx.chunks).toEqual(['a', 'b']);
    expect(ctx.plans).toEqual([[{ step: 'x', status: 'pending' }]]);
    expect(ctx.signal.aborted).toBe(false);
    ctx.abort();
    expect(ctx.signal.aborted).toBe(true);
  });
});
