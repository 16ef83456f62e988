import { describe, expect, it } from 'vitest';
import { isInclude, parseConfigList, runsProgram, showSetting } from './gitPrograms';

const runs = (key: string, value: string | null = 'x') => runsProgram({ key, value });

describe('runsProgram', () => {
  it('knows the settings git-config(1) gives a program or more config to', () => {
    for (const key of [
      'core.fsmonitor',
      'core.hooksPath',
      'core.pager',
      'core.editor',
      'core.sshCommand',
      'core.gitProxy',
      'core.askPass',
      'core.alternateRefsCommand',
      'pager.log',
      'sequence.editor',
      'credential.helper',
      'credential.https://example.com.helper',
      'diff.external',
      'diff.Bin.textconv',
      'diff.bin.command',
      'difftool.kd.cmd',
      'mergetool.kd.path',
      'merge.ours.driver',
      'filter.lfs.process',
      'filter.x.clean',
      'filter.x.smudge',
      'gpg.program',
      'gpg.ssh.program',
      'gpg.ssh.defaultKeyCommand',
      'alias.st',
      'include.path',
      'includeIf.gitdir:~/work/.path',
      'includeif.onbranch:main.path',
      'remote.origin.uploadpack',
      'remote.origin.receivepack',
      'remote.origin.vcs',
      'interactive.diffFilter',
      'guitool.run.cmd',
      'browser.ff.cmd',
      'man.viewer',
      'web.browser',
      'instaweb.httpd',
      'sendemail.smtpServer',
      'sendemail.work.sendmailCmd',
      'imap.tunnel',
      'tar.tgz.command',
      'trailer.sign.cmd',
      'uploadpack.packObjectsHook',
    ]) {
      expect(runs(key), key).toBe(true);
    }
    expect(runs('submodule.lib.update', '!sh evil')).toBe(true);
    expect(runs('protocol.ext.allow', 'always')).toBe(true);
    expect(runs('protocol.allow', 'user')).toBe(true);
  });

  it('lets the values that run nothing, and what a clone writes, pass', () => {
    expect(runs('core.fsmonitor', 'true')).toBe(false);
    expect(runs('core.fsmonitor', 'false')).toBe(false);
    expect(runs('core.fsmonitor', null)).toBe(false);
    expect(runs('pager.branch', 'false')).toBe(false);
    expect(runs('core.pager', 'cat')).toBe(false);
    expect(runs('credential.helper', '')).toBe(false);
    expect(runs('submodule.lib.update', 'rebase')).toBe(false);
    expect(runs('protocol.ext.allow', 'never')).toBe(false);
    const clone = parseConfigList(
      Buffer.from(
        [
          'core.repositoryformatversion\n0',
          'core.filemode\ntrue',
          'core.bare\nfalse',
          'core.logallrefupdates\ntrue',
          'remote.origin.url\n/tmp/upstream',
          'remote.origin.fetch\n+refs/heads/*:refs/remotes/origin/*',
          'branch.main.remote\norigin',
          'branch.main.merge\nrefs/heads/main',
          'submodule.lib.url\n../lib',
          'submodule.lib.active\ntrue',
          'extensions.objectformat\nsha256',
          '',
        ].join('\0'),
      ),
    );
    expect(clone).toHaveLength(11);
    expect(clone.filter(runsProgram)).toEqual([]);
  });

  it('reads `git config --null --list`, names alone included, and shows a setting on one line', () => {
    const entries = parseConfigList(Buffer.from('core.bare\0alias.x\n!a\nb\0includeif.gitdir:/a.b/.path\n../x\0'));
    expect(entries).toEqual([
      { key: 'core.bare', value: null },
      { key: 'alias.x', value: '!a\nb' },
      { key: 'includeif.gitdir:/a.b/.path', value: '../x' },
    ]);
    expect(showSetting(entries[1]!)).toBe('alias.x = !a b');
    expect(isInclude(entries[2]!.key)).toBe(true);
    expect(isInclude('include.path')).toBe(true);
    expect(isInclude('alias.path')).toBe(false);
  });
});
