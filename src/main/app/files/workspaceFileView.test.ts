import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../store/store';
import { storeWithSession } from '../../../../test/support/storedSession';
import { MAX_VIEWED_BYTES, viewWorkspaceFile } from './workspaceFileView';

// A link in the model's answer opens a file for the person to see. The model writes that text, so
// each case here is something an answer could name: it gets what read_file would get, no more.

let dirs: string[] = [];
let store: Store | undefined;
let workspace: string;
let outside: string;
let dataDir: string;
let sessionId: string;

function temp(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  dirs.push(dir);
  return dir;
}

beforeEach(() => {
  dataDir = temp('tether-view-data-');
  workspace = temp('tether-view-ws-');
  outside = temp('tether-view-outside-');
  fs.mkdirSync(path.join(workspace, 'src'));
  fs.writeFileSync(path.join(workspace, 'src/long.js'), Array.from({ length: 400 }, (_, i) => `const line${i + 1} = ${i + 1};`).join('\n'));
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'the password\n');
  ({ store, sessionId } = storeWithSession(dataDir, workspace));
});

afterEach(() => {
  store?.close();
  store = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const view = (given: string, confirmed = false) =>
  viewWorkspaceFile({ workspace, path: given, confirmed, rules: { dataDir, store: store!, sessionId } });

describe('a workspace file shown from a link', () => {
  it('shows any text file of the folder, changed by the session or not, by a relative or an absolute path inside it', async () => {
    const shown = await view('src/long.js');
    expect(shown).toMatchObject({ status: 'shown', path: 'src/long.js', language: 'javascript' });
    expect(shown.status === 'shown' && shown.text.split('\n')).toHaveLength(400);
    expect(await view(`${workspace}/src/long.js`)).toMatchObject({ status: 'shown', path: 'src/long.js' });
    expect(await view('./src/../src/long.js')).toMatchObject({ status: 'shown', path: 'src/long.js' });
  });

  it.each([
    [
      'a way up and out',
      () => `../${path.basename(outside)}/secret.txt`,
      /secret\.txt is outside this session’s folder; only files inside it are shown\./,
    ],
    ['an absolute path elsewhere', () => path.join(outside, 'secret.txt'), /is outside this session’s folder/],
    ['the home folder', () => '~/.ssh/id_rsa', /~\/\.ssh\/id_rsa is in a home folder, not in this session’s folder/],
    ['a system file', () => '/etc/passwd', /\/etc\/passwd is outside this session’s folder/],
  ])('refuses %s, saying why', async (_what, given, why) => {
    await expect(view(given())).rejects.toThrow(why);
  });

  it('refuses a symbolic link that leads out, directly or through a linked folder, and follows one that stays inside', async () => {
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'innocent.txt'));
    fs.symlinkSync(outside, path.join(workspace, 'docs'));
    fs.symlinkSync('long.js', path.join(workspace, 'src/alias.js'));
    await expect(view('innocent.txt')).rejects.toThrow(
      /innocent\.txt is a symbolic link, or inside one, that leads outside this session’s folder/,
    );
    await expect(view('docs/secret.txt')).rejects.toThrow(/docs\/secret\.txt is a symbolic link, or inside one, that leads outside/);
    expect(await view('src/alias.js')).toMatchObject({ status: 'shown', path: 'src/long.js' });
  });

  it('asks before showing a file a read rule asks about (.env, at any depth), and shows it once the person confirms', async () => {
    fs.writeFileSync(path.join(workspace, '.env'), 'API_KEY=hunter2\n');
    fs.mkdirSync(path.join(workspace, 'deploy'));
    fs.writeFileSync(path.join(workspace, 'deploy/.env.production'), 'API_KEY=prod\n');
    fs.writeFileSync(path.join(workspace, '.env.example'), 'API_KEY=\n');
    const asked = await view('.env');
    expect(asked).toMatchObject({ status: 'asks', path: '.env' });
    expect(JSON.stringify(asked)).not.toContain('hunter2');
    expect(asked.status === 'asks' && asked.reason).toMatch(/secrets/);
    expect(await view('deploy/.env.production')).toMatchObject({ status: 'asks' });
    expect(await view('.env', true)).toMatchObject({ status: 'shown', text: 'API_KEY=hunter2\n' });
    expect(await view('.env.example')).toMatchObject({ status: 'shown' });
  });

  it('refuses a file a deny rule covers, even when the person confirms', async () => {
    fs.mkdirSync(path.join(workspace, 'keys'));
    fs.writeFileSync(path.join(workspace, 'keys/prod.pem'), '-----BEGIN KEY-----\n');
    fs.writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ permissions: { deny: ['read_file(keys/**)'] } }));
    await expect(view('keys/prod.pem', true)).rejects.toThrow(/keys\/prod\.pem is not shown:.*read_file\(keys\/\*\*\)/);
  });

  it('says so for a missing file, a folder, a binary file and one too big to show', async () => {
    fs.writeFileSync(path.join(workspace, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
    fs.writeFileSync(path.join(workspace, 'huge.log'), Buffer.alloc(MAX_VIEWED_BYTES + 1, 'a'));
    await expect(view('src/nowhere.js')).rejects.toThrow('src/nowhere.js does not exist in the session’s folder.');
    await expect(view('src')).rejects.toThrow('src is a folder, not a file.');
    await expect(view('.')).rejects.toThrow(/the session’s folder itself/);
    await expect(view('logo.png')).rejects.toThrow(/logo\.png is a binary file/);
    await expect(view('huge.log')).rejects.toThrow(/huge\.log is 2\.0 MB; the viewer shows files up to 2\.0 MB/);
  });

  it('refuses a named pipe without waiting for a writer', async () => {
    execFileSync('mkfifo', [path.join(workspace, 'pipe.txt')]);
    await expect(view('pipe.txt')).rejects.toThrow(/not a regular file/);
  });
});
