import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectSettingsPath, SettingsError } from '../settings/settingsFile';
import { loadPermissionRules, readPermissionRules, rulesIn } from './settings';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-settings-'));
  made.push(dir);
  return dir;
}

function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

function errorOf(run: () => unknown): SettingsError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return error as SettingsError;
  }
  throw new Error('expected a SettingsError, but the file loaded');
}

describe('permission settings files', () => {
  it('reads allow, ask and deny rules with their source', () => {
    const file = write(
      path.join(folder(), 'settings.json'),
      JSON.stringify({
        theme: 'dark',
        permissions: { allow: ['run_command(npm test *)'], ask: ['run_command(git push *)'], deny: [' read_file(.env) '] },
      }),
    );
    expect(readPermissionRules(file, 'user')).toEqual([
      { pattern: 'read_file(.env)', action: 'deny', source: 'user' },
      { pattern: 'run_command(git push *)', action: 'ask', source: 'user' },
      { pattern: 'run_command(npm test *)', action: 'allow', source: 'user' },
    ]);
  });

  it('treats a missing optional file as no rules, and a missing required one as an error', () => {
    const missing = path.join(folder(), 'nope.json');
    expect(readPermissionRules(missing, 'user')).toEqual([]);
    const error = errorOf(() => readPermissionRules(missing, 'cli', { required: true }));
    expect(error.message).toContain(missing);
    expect(error.message).toContain('does not exist');
  });

  it('names the file and the problem for invalid JSON', () => {
    const file = write(path.join(folder(), 'settings.json'), '{"permissions": {"deny": ["run_command(rm *)"],}}');
    const error = errorOf(() => readPermissionRules(file, 'project'));
    expect(error.file).toBe(file);
    expect(error.message).toContain(file);
    expect(error.message).toContain('not valid JSON');
  });

  it('refuses an unknown key under permissions, so a typo never drops a deny silently', () => {
    const file = write(path.join(folder(), 'settings.json'), JSON.stringify({ permissions: { denny: ['run_command(rm *)'] } }));
    const error = errorOf(() => readPermissionRules(file, 'project'));
    expect(error.message).toContain('"denny"');
    expect(error.message).toContain(file);
  });

  it('refuses a rule list of the wrong shape', () => {
    const file = write(path.join(folder(), 'settings.json'), JSON.stringify({ permissions: { allow: 'run_command' } }));
    expect(errorOf(() => readPermissionRules(file, 'user')).message).toContain('permissions.allow');
    const numbers = write(path.join(folder(), 'settings.json'), JSON.stringify({ permissions: { deny: [1] } }));
    expect(errorOf(() => readPermissionRules(numbers, 'user')).message).toContain('permissions.deny.0');
  });

  it('refuses the whole file for one malformed rule, naming where it is', () => {
    const file = write(
      path.join(folder(), 'settings.json'),
      JSON.stringify({ permissions: { allow: ['run_command(ls *)'], deny: ['read_file(.env)', 'run_command(rm *'] } }),
    );
    const error = errorOf(() => readPermissionRules(file, 'project'));
    expect(error.message).toContain('permissions.deny[1]');
    expect(error.message).toContain('"run_command(rm *"');
    expect(error.message).toContain('never closed');
  });

  it('refuses a folder where a file should be', () => {
    const dir = folder();
    expect(errorOf(() => readPermissionRules(dir, 'cli', { required: true })).message).toContain('is a folder');
  });

  it('loads user, project and CLI rules in that order', () => {
    const root = folder();
    const user = write(path.join(folder(), 'user.json'), JSON.stringify({ permissions: { deny: ['run_command(rm *)'] } }));
    write(projectSettingsPath(root), JSON.stringify({ permissions: { allow: ['run_command(make *)'], ask: ['edit_file(db/**)'] } }));
    const cli = write(
      path.join(folder(), 'rules.json'),
      JSON.stringify({ permissions: { allow: ['fetch_url(domain:docs.example.com)'] } }),
    );
    expect(loadPermissionRules({ workspaceRoot: root, userSettings: user, cliRules: cli })).toEqual([
      { pattern: 'run_command(rm *)', action: 'deny', source: 'user' },
      { pattern: 'edit_file(db/**)', action: 'ask', source: 'project' },
      { pattern: 'run_command(make *)', action: 'allow', source: 'project' },
      { pattern: 'fetch_url(domain:docs.example.com)', action: 'allow', source: 'cli' },
    ]);
    expect(projectSettingsPath(root)).toBe(path.join(root, '.tether', 'settings.json'));
  });

  it('reads an empty file or one without permissions as no rules', () => {
    expect(readPermissionRules(write(path.join(folder(), 'a.json'), ''), 'user')).toEqual([]);
    expect(readPermissionRules(write(path.join(folder(), 'b.json'), '{"model": "x"}'), 'user')).toEqual([]);
  });
});

describe('a bare rules file (tether run --rules, permissions explain --rules)', () => {
  it('reads {"allow", "ask", "deny"} without the "permissions" wrapper, and still refuses a misspelt list', () => {
    expect(rulesIn({ deny: ['run_command(rm *)'], allow: ['read_file'] }, 'rules.json', 'cli')).toEqual([
      { pattern: 'run_command(rm *)', action: 'deny', source: 'cli' },
      { pattern: 'read_file', action: 'allow', source: 'cli' },
    ]);
    expect(() => rulesIn({ deny: [], denny: ['run_command(rm *)'] }, 'rules.json', 'cli')).toThrow(/denny/);
  });
});
