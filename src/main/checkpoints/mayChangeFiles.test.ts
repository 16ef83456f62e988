import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../shell/parser';
import { mayChangeFiles } from './mayChangeFiles';

const workspaceRoot = '/work/project';
const runCommand = { name: 'run_command', risk: 'exec' } as const;
const command = (text: string, cwd?: string) =>
  mayChangeFiles(runCommand, { args: { command: text, ...(cwd !== undefined ? { cwd } : {}) }, workspaceRoot });

beforeAll(() => initShellParser());

describe('mayChangeFiles', () => {
  it('is true for edits, commands and MCP tools not trusted as read-only; false for reads, plans and fetches', () => {
    expect(mayChangeFiles({ name: 'edit_file', risk: 'edit' })).toBe(true);
    expect(mayChangeFiles({ name: 'run_command', risk: 'exec' })).toBe(true);
    expect(mayChangeFiles({ name: 'mcp__fs__write', risk: 'egress' })).toBe(true);
    expect(mayChangeFiles({ name: 'mcp__fs__read', risk: 'egress', mcpReadOnly: true })).toBe(false);
    expect(mayChangeFiles({ name: 'read_file', risk: 'read' })).toBe(false);
    expect(mayChangeFiles({ name: 'update_plan', risk: 'none' })).toBe(false);
    expect(mayChangeFiles({ name: 'fetch_url', risk: 'egress' })).toBe(false);
  });

  it('is false for a command the shell analysis proves only reads: no checkpoint before or after it', () => {
    for (const text of ['true', 'ls -la', 'cat README.md | grep -n auth | head -3', 'wc -l src/*.ts']) {
      expect(command(text), text).toBe(false);
    }
    expect(command('ls', 'src')).toBe(false);
  });

  it('is true for every command that writes, runs project code, or cannot be pinned down', () => {
    for (const text of [
      'echo x > notes.txt',
      'ls > listing.txt',
      'cat a.txt >> b.txt',
      'rm -rf build',
      'sed -i s/a/b/ file.ts',
      'touch x',
      'npm test',
      './scripts/build.sh',
      'git commit -m wip',
      'git checkout -- .',
      'find . -name "*.tmp" -delete',
      'eval "$CMD"',
      'bash -c "$X"',
      '$(echo rm) -rf src',
      'ls; touch x',
      '',
    ]) {
      expect(command(text), text).toBe(true);
    }
  });

  it('is true when the arguments are not what run_command takes', () => {
    expect(mayChangeFiles(runCommand, { args: null, workspaceRoot })).toBe(true);
    expect(mayChangeFiles(runCommand, { args: { command: 42 }, workspaceRoot })).toBe(true);
    expect(mayChangeFiles(runCommand, { args: { command: 'ls', cwd: 7 }, workspaceRoot })).toBe(true);
  });
});
