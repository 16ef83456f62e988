import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { readHooks } from '../src/main/hooks/hookSettings';
import { readPermissionRules } from '../src/main/permissions/settings';
import { readAppSettings, settingsFile } from '../src/main/settings/appSettings';
import { removeTempDirs, tempDir } from './support/tempDirs';

// settings.json is one file that three readers each take their part of: the app's settings, the
// permission rules and the hooks. They read it through one reader (settings/jsonFile.ts), so a file
// that cannot be used says the same thing, whichever of them found it first.

afterEach(removeTempDirs);

/** What each reader makes of the data folder's settings.json: what it read, or the message it threw. */
function readers(dataDir: string): { app: unknown; rules: unknown; hooks: unknown } {
  const file = settingsFile(dataDir);
  const outcome = (read: () => unknown) => {
    try {
      return { read: read() };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  return {
    app: outcome(() => readAppSettings(dataDir)),
    rules: outcome(() => readPermissionRules(file, 'user')),
    hooks: outcome(() => readHooks(file, 'user')),
  };
}

describe('settings.json through each of its readers', () => {
  it.each([
    ['a trailing comma', '{"permissions": {"deny": ["run_command(rm *)"],}}', /is not valid JSON \(.*\); fix it or move it away\.$/],
    ['half a file', '{"hooks":', /is not valid JSON \(.*\); fix it or move it away\.$/],
    ['a folder', null, /is a folder, not a file; name the JSON file itself, or move the folder away\.$/],
  ])('a file with %s gives the same message naming the file, whoever reads it', (_what, text, problem) => {
    const dataDir = tempDir('tether-settings-readers-');
    const file = settingsFile(dataDir);
    if (text === null) fs.mkdirSync(file);
    else fs.writeFileSync(file, text);
    const { app, rules, hooks } = readers(dataDir);
    expect(app).toEqual({ error: expect.stringMatching(problem) });
    expect((app as { error: string }).error).toContain(`The settings file ${file} `);
    expect(rules).toEqual(app);
    expect(hooks).toEqual(app);
  });

  it('reads a file with nothing in it, or no file, as no settings, no rules and no hooks', () => {
    const dataDir = tempDir('tether-settings-readers-');
    expect(readers(dataDir)).toEqual({ app: { read: {} }, rules: { read: [] }, hooks: { read: [] } });
    fs.writeFileSync(settingsFile(dataDir), ' \n');
    expect(readers(dataDir)).toEqual({ app: { read: {} }, rules: { read: [] }, hooks: { read: [] } });
  });

  it('still lets each reader refuse what is wrong in its own part, naming it', () => {
    const dataDir = tempDir('tether-settings-readers-');
    fs.writeFileSync(settingsFile(dataDir), JSON.stringify({ permissions: { denny: ['run_command(rm *)'] }, hooks: { PreTooluse: [] } }));
    const { rules, hooks } = readers(dataDir);
    expect(rules).toEqual({ error: expect.stringContaining('"denny"') });
    expect(hooks).toEqual({ error: expect.stringContaining('unknown event "PreTooluse"') });
  });
});
