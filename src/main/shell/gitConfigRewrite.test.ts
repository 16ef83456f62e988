import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand, type AnalyzeCommandOptions } from './analyzeCommand';
import { rewritesOnlyPlainGitConfig } from './gitConfigRewrite';
import { initShellParser } from './parser';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-git-config-rewrite-')));
const where = { cwd: root, workspaceRoot: root };
const proven = (command: string, options: AnalyzeCommandOptions = where) =>
  rewritesOnlyPlainGitConfig(analyzeCommand(command, options), options);

beforeAll(() => initShellParser());
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('rewritesOnlyPlainGitConfig', () => {
  it('holds for git commands whose config change is a branch, an upstream, a remote or a plain setting', () => {
    for (const command of [
      'git branch -D -q topic',
      'git branch -d topic other',
      'git branch -m old new',
      'git branch -M main',
      'git branch --copy a b',
      'git branch -u origin/main',
      'git branch --set-upstream-to=origin/main feature',
      'git branch --unset-upstream',
      'git branch --track=inherit feature main',
      'git remote add upstream https://example.com/up.git',
      'git remote add -t main -m main --no-tags mirror git@example.com:x.git',
      'git remote rename upstream up',
      'git remote remove up',
      'git remote set-url --push origin ssh://example.com/x.git',
      'git remote set-branches --add origin dev',
      'git config user.email dev@example.com',
      'git config --local user.name "A Person"',
      'git config --unset branch.topic.merge',
      'git config Branch.Topic.Remote origin',
      'git config remote.origin.url https://example.com/x.git',
    ]) {
      expect(proven(command), command).toBe(true);
    }
  });

  it('holds when every other part of the line only reads', () => {
    expect(proven('git remote add up https://example.com/x.git && git remote -v')).toBe(true);
    expect(proven('git branch -D topic; git branch --list')).toBe(true);
  });

  it('does not hold for a setting that can decide what git runs, whatever its spelling', () => {
    for (const command of [
      'git config core.fsmonitor "touch /tmp/x"',
      'git config core.bare true',
      'git config core.symlinks false',
      'git config Core.FsMonitor true',
      'git config core.hooksPath .husky',
      'git config alias.st "!sh -c evil"',
      'git config include.path ../x',
      'git config includeIf.gitdir:/.path ../x',
      'git config filter.lfs.clean "sh -c x"',
      'git config diff.x.textconv cat',
      'git config credential.helper store',
      'git config core.sshCommand "ssh -o ProxyCommand=x"',
      'git config submodule.lib.update "!sh"',
      'git config branch.topic.fsmonitor x',
      'git config --global user.email a@b',
      'git config --file .git/config user.email a@b',
      'git config --add --unset user.email a@b',
    ]) {
      expect(proven(command), command).toBe(false);
    }
  });

  it('does not hold for a git the agent could have planted, options before the subcommand, or words known only when it runs', () => {
    fs.mkdirSync(path.join(root, 'bin'), { recursive: true });
    fs.writeFileSync(path.join(root, 'bin', 'git'), '#!/bin/sh\n', { mode: 0o755 });
    expect(proven('git branch -D topic', { ...where, pathEnv: `${path.join(root, 'bin')}:/usr/bin:/bin` })).toBe(false);
    for (const command of [
      './bin/git branch -D topic',
      'git -c core.fsmonitor=x branch -D topic',
      'git -C sub branch -D topic',
      'git --git-dir=.git branch -D topic',
      'GIT_EDITOR=vi git branch -D topic',
      'env git branch -D topic',
      'git branch -D "$BRANCH"',
      'git branch -D $(cat name)',
      'git branch -D topic > out.txt',
      'git branch --edit-description',
      'git branch -Dx topic',
      'git remote add -f up https://example.com/x.git',
      'git remote add up',
      'git remote set-head origin -a',
      'git checkout -b topic origin/topic',
      'git push -u origin topic',
      'git branch -D topic && rm -rf src',
      'git branch -D topic; echo x > notes.txt',
      'git status',
      '',
    ]) {
      expect(proven(command), command).toBe(false);
    }
  });
});
