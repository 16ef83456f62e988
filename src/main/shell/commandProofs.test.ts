import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandOnlyReads, commandStaysLocal } from './commandProofs';
import { initShellParser } from './parser';

// A real folder: what git may do depends on what is there.
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-proofs-')));
const where = { cwd: root, workspaceRoot: root };

beforeAll(() => initShellParser());
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('commandStaysLocal (whether a sandboxed command may start before the proxy bridges listen)', () => {
  it('is true only when every part is pinned down and none may reach the network', () => {
    const local = (command: string) => commandStaysLocal(command, where);
    for (const command of ['true', 'ls -la', 'cat a.txt | grep -n x | head -5', 'git status --short', 'git diff HEAD~1', 'wc -l *.ts']) {
      expect(local(command), command).toBe(true);
    }
    for (const command of [
      'curl https://example.com',
      'ls && curl -s example.com',
      'git push origin main',
      'git fetch',
      'npm install',
      'ssh host true',
      './build.sh',
      'eval "$CMD"',
      '$(echo curl) example.com',
      'bash -c "$X"',
      '',
    ]) {
      expect(local(command), command).toBe(false);
    }
  });
});

describe('commandOnlyReads', () => {
  it('is true only when every part is pinned down and only reads', () => {
    for (const command of ['true', 'ls -la', 'cat a.txt | grep -n x | head -5', 'wc -l *.ts']) {
      expect(commandOnlyReads(command, where), command).toBe(true);
    }
    for (const command of ['ls > out.txt', 'rm -rf build', 'touch x', 'eval "$CMD"', '']) {
      expect(commandOnlyReads(command, where), command).toBe(false);
    }
  });
});
