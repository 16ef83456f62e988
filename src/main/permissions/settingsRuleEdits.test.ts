import { chmodSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { settingsFile } from '../settings/appSettings';
import { readPermissionRules } from './settings';
import { addSettingsRule, removeSettingsRule, settingsRuleLists } from './settingsRuleEdits';

// Settings' "add a rule": what the person types goes into their settings.json only when the file's own
// reader takes it, and the rest of the file stays as they wrote it.

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tether-rules-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const theirs = {
  mcpServers: { github: { command: 'gh-mcp', args: ['--read-only'] } },
  model: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3:8b' },
  permissions: { allow: ['run_command(npm test *)'] },
  someFutureSetting: { keep: ['me', 1.5, null] },
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] }] },
};

describe('rules added in Settings', () => {
  it('go into the list asked for, and every session loads them, as it loads the file', () => {
    const dir = dataDir();
    expect(settingsRuleLists(dir)).toEqual({ allow: [], ask: [], deny: [] });
    expect(addSettingsRule(dir, 'deny', '  run_command(rm *) ')).toEqual({ allow: [], ask: [], deny: ['run_command(rm *)'] });
    addSettingsRule(dir, 'ask', 'fetch_url(domain:example.com)');
    addSettingsRule(dir, 'allow', 'read_file(docs/**)');
    expect(readPermissionRules(settingsFile(dir), 'user')).toEqual([
      { pattern: 'run_command(rm *)', action: 'deny', source: 'user' },
      { pattern: 'fetch_url(domain:example.com)', action: 'ask', source: 'user' },
      { pattern: 'read_file(docs/**)', action: 'allow', source: 'user' },
    ]);
    expect(removeSettingsRule(dir, 'deny', 'run_command(rm *)').deny).toEqual([]);
    expect(readPermissionRules(settingsFile(dir), 'user').map((rule) => rule.pattern)).toEqual([
      'fetch_url(domain:example.com)',
      'read_file(docs/**)',
    ]);
  });

  it('leave the rest of the file as the person wrote it: other settings, key order, indentation, line endings, permissions', () => {
    const dir = dataDir();
    const file = settingsFile(dir);
    const written = JSON.stringify(theirs, null, '\t').replaceAll('\n', '\r\n');
    writeFileSync(file, written);
    chmodSync(file, 0o644);
    addSettingsRule(dir, 'deny', 'run_command(curl *)');
    const after = readFileSync(file, 'utf8');
    const expected = { ...theirs, permissions: { allow: ['run_command(npm test *)'], deny: ['run_command(curl *)'] } };
    expect(after).toBe(JSON.stringify(expected, null, '\t').replaceAll('\n', '\r\n'));
    expect(Object.keys(JSON.parse(after))).toEqual(Object.keys(theirs));
    expect(statSync(file).mode & 0o777).toBe(0o644);

    // Four spaces and a final line break; a file on one line stays on one line.
    writeFileSync(file, `${JSON.stringify(theirs, null, 4)}\n`);
    addSettingsRule(dir, 'ask', 'mcp__github__*');
    expect(readFileSync(file, 'utf8')).toMatch(/^\{\n {4}"mcpServers": \{\n {8}"github"[\s\S]*\n\}\n$/);
    writeFileSync(file, JSON.stringify(theirs));
    addSettingsRule(dir, 'ask', 'fetch_url');
    expect(readFileSync(file, 'utf8')).not.toContain('\n');
  });

  it('write through a settings file that is a link to one kept elsewhere, and keep the link', () => {
    const dir = dataDir();
    const kept = path.join(dataDir(), 'dotfiles-settings.json');
    writeFileSync(kept, JSON.stringify(theirs, null, 2));
    symlinkSync(kept, settingsFile(dir));
    addSettingsRule(dir, 'deny', 'run_command(sudo *)');
    expect(lstatSync(settingsFile(dir)).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(kept, 'utf8')).permissions.deny).toEqual(['run_command(sudo *)']);
  });

  it('refuse a rule the file’s reader cannot read, saying why, and write nothing', () => {
    const dir = dataDir();
    const file = settingsFile(dir);
    writeFileSync(file, JSON.stringify(theirs, null, 2));
    const before = readFileSync(file, 'utf8');
    const refusals: [string, RegExp][] = [
      ['run_command(rm *', /"run_command\(rm \*" cannot be read: .*"\("/],
      ['bash(rm *)', /"bash\(rm \*\)" cannot be read: .*did you mean run_command\?$/],
      ['edit_file()', /cannot be read/],
      ['', /empty/],
    ];
    for (const [rule, why] of refusals) expect(() => addSettingsRule(dir, 'deny', rule), rule).toThrow(why);
    expect(() => addSettingsRule(dir, 'allow', 'run_command(npm test *)')).toThrow(
      'run_command(npm test *) is already one of your allow rules.',
    );
    expect(() => removeSettingsRule(dir, 'deny', 'run_command(ls)')).toThrow('run_command(ls) is not one of your deny rules');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('never overwrite a settings file that is broken: the person fixes it first', () => {
    const dir = dataDir();
    const file = settingsFile(dir);
    for (const broken of ['{ "model": ', JSON.stringify({ permissions: { denny: ['x'] } }), JSON.stringify({ mode: 'unleashed' })]) {
      writeFileSync(file, broken);
      expect(() => addSettingsRule(dir, 'deny', 'run_command(rm *)'), broken).toThrow(/settings\.json/);
      expect(readFileSync(file, 'utf8')).toBe(broken);
    }
  });
});
