import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readAppSettings, settingsFile, writeAppSettings } from './appSettings';

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tether-settings-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('app settings', () => {
  it('are empty when there is no file, and round-trip through the file', () => {
    const dir = dataDir();
    expect(readAppSettings(dir)).toEqual({});
    writeAppSettings(dir, { mode: 'auto-edit', model: { api: 'chat' }, permissions: { deny: ['run_command(rm *)'] } });
    expect(readAppSettings(dir)).toEqual({ mode: 'auto-edit', model: { api: 'chat' }, permissions: { deny: ['run_command(rm *)'] } });
    expect(readFileSync(settingsFile(dir), 'utf8')).not.toMatch(/apiKey/);
  });

  it('name the file and the problem when it is broken', () => {
    const dir = dataDir();
    writeFileSync(settingsFile(dir), '{ "mode": ');
    expect(() => readAppSettings(dir)).toThrow(/settings\.json is not valid JSON/);
    writeFileSync(settingsFile(dir), JSON.stringify({ mode: 'unleashed' }));
    expect(() => readAppSettings(dir)).toThrow(/settings\.json holds a setting Tether cannot use[\s\S]*mode/);
  });
});
