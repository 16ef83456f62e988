import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openShadowRepo } from '../workspace/shadowRepo';
import { ownChanges } from './ownChanges';
import { SnapshotHistory } from './snapshotHistory';

const dirs: string[] = [];
function temp(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('ownChanges', () => {
  it('cuts a text file into hunks and judges a binary one whole, even when its bytes are valid UTF-8', async () => {
    const workspace = temp('tether-own-ws-');
    fs.writeFileSync(path.join(workspace, 'notes.txt'), 'one\ntwo\n');
    fs.writeFileSync(path.join(workspace, 'data.bin'), 'a\0b\n');
    const repo = await openShadowRepo({ workspace, gitDir: path.join(temp('tether-own-data-'), 'shadow.git') });
    const before = (await repo.snapshot('before')).commit;
    fs.writeFileSync(path.join(workspace, 'notes.txt'), 'one\n2\n');
    fs.writeFileSync(path.join(workspace, 'data.bin'), 'a\0c\n');
    const after = (await repo.snapshot('after')).commit;

    const changes = await ownChanges(new SnapshotHistory(repo), [{ before, after }], after);
    expect(changes.map((change) => change.path)).toEqual(['data.bin', 'notes.txt']);
    const [binary, text] = changes;
    expect(binary?.text).toBeUndefined();
    expect(binary?.origin?.bytes.toString()).toBe('a\0b\n');
    expect(binary?.current?.bytes.toString()).toBe('a\0c\n');
    expect(text?.text).toEqual({ origin: 'one\ntwo\n', current: 'one\n2\n' });
  });
});
