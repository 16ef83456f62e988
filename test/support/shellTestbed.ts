import fs from 'node:fs';
import { expect } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import type { CommandAnalysis, SimpleCommand } from '../../src/main/shell/commandAnalysis';
import { analyzeCommand, initShellParser, type AnalyzeCommandOptions } from '../../src/main/shell/analyzeCommand';

/**
 * A real workspace and a real "system" bin folder outside it, in a temp directory, so
 * that program resolution (PATH, symlinks, workspace folders) is exercised on real files and never
 * depends on what the machine running the tests has installed.
 */
export interface ShellTestbed {
  /** The workspace root (canonical). */
  workspace: string;
  /** A folder outside the workspace holding stand-ins for system programs. */
  systemBin: string;
  /** PATH with only systemBin. */
  pathEnv: string;
  analyze(command: string, options?: Partial<AnalyzeCommandOptions>): CommandAnalysis;
  /** The line's one simple command (the test fails when there are more or none). */
  only(command: string): SimpleCommand;
  /** The line's analysis, which must be unpinnable (for `why`, when given) with nothing in it read-only. */
  expectUnpinnable(command: string, why?: RegExp): CommandAnalysis;
  /** Creates an executable file at a path relative to the workspace and returns its absolute path. */
  addWorkspaceProgram(relativePath: string): string;
  dispose(): void;
}

/** Programs the stand-in system folder holds. */
export const SYSTEM_PROGRAMS = [
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'pwd',
  'echo',
  'printf',
  'true',
  'false',
  'which',
  'file',
  'stat',
  'du',
  'df',
  'tree',
  'nl',
  'tac',
  'sort',
  'uniq',
  'cut',
  'tr',
  'diff',
  'cmp',
  'comm',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'date',
  'uname',
  'whoami',
  'id',
  'env',
  'printenv',
  'seq',
  'find',
  'sed',
  'base64',
  'jq',
  'git',
  'paste',
  'rev',
  'expr',
  'numfmt',
  'sleep',
  'test',
  'rm',
  'mkdir',
  'cp',
  'mv',
  'touch',
  'chmod',
  'ln',
  'tee',
  'tar',
  'curl',
  'wget',
  'ssh',
  'scp',
  'rsync',
  'nc',
  'npm',
  'pnpm',
  'yarn',
  'node',
  'python3',
  'perl',
  'ruby',
  'bash',
  'sh',
  'zsh',
  'timeout',
  'nice',
  'nohup',
  'stdbuf',
  'ionice',
  'xargs',
  'sudo',
  'doas',
  'su',
  'watch',
  'make',
  'cargo',
  'tsc',
  'eslint',
  'kubectl',
  'docker',
  'gh',
  'pip',
  'go',
  'awk',
  'setsid',
  'ping',
  'dig',
  'aws',
  'vitest',
  'jest',
];

export async function createShellTestbed(): Promise<ShellTestbed> {
  await initShellParser();
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-shell-')));
  const workspace = path.join(root, 'workspace');
  const systemBin = path.join(root, 'system', 'bin');
  fs.mkdirSync(workspace, { recursive: true });
  fs.mkdirSync(systemBin, { recursive: true });
  for (const name of SYSTEM_PROGRAMS) writeExecutable(path.join(systemBin, name));
  const analyze = (command: string, options: Partial<AnalyzeCommandOptions> = {}): CommandAnalysis =>
    analyzeCommand(command, { cwd: workspace, workspaceRoot: workspace, pathEnv: systemBin, ...options });
  return {
    workspace,
    systemBin,
    pathEnv: systemBin,
    analyze,
    only(command) {
      const analysis = analyze(command);
      expect(analysis.commands, command).toHaveLength(1);
      return analysis.commands[0]!;
    },
    expectUnpinnable(command, why) {
      const analysis = analyze(command);
      expect(analysis.unpinnable, `expected ${JSON.stringify(command)} to be unpinnable`).toBeDefined();
      if (why) expect(analysis.unpinnable).toMatch(why);
      for (const c of analysis.commands) expect(c.readOnly, `${c.argv.join(' ')} in an unpinnable line`).toBe(false);
      return analysis;
    },
    addWorkspaceProgram(relativePath) {
      const file = path.join(workspace, relativePath);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      writeExecutable(file);
      return file;
    },
    dispose() {
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

function writeExecutable(file: string): void {
  fs.writeFileSync(file, '#!/bin/sh\nexit 0\n');
  fs.chmodSync(file, 0o755);
}
