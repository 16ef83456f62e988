import { describe, expect, it } from 'vitest';
import { migrationFixture } from '../../../../test/support/migrationFixture';

const fixture = migrationFixture('m0006');

/** Two projects as the schema-5 store left them, one trusted, with a session in one of them. */
function writeSchema5(): void {
  fixture.writeAtSchema(
    5,
    `
    INSERT INTO projects (id, path, name, trusted, created_at) VALUES
      ('p1', '/work/app', 'app', 1, 1000),
      ('p2', '/work/lib', 'lib', 0, 2000);
    INSERT INTO sessions (num, id, project_id, workspace, model, api, base_url, status, max_steps, created_at, updated_at)
    VALUES (1, 's1', 'p1', '/work/app', 'gpt-test', 'responses', 'http://127.0.0.1:9', 'done', 50, 1000, 1000);
  `,
  );
}

describe('migration 6 (a project keeps the mode its new sessions start in)', () => {
  it('leaves every existing project not asked yet, and keeps what it had', () => {
    writeSchema5();
    const store = fixture.openStore();
    expect(store.projects.list().map((project) => [project.id, project.trusted, project.defaultMode])).toEqual([
      ['p1', true, null],
      ['p2', false, null],
    ]);
    expect(store.sessions.get('s1')?.projectId).toBe('p1');
    fixture.inspect((db) => {
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
    });
  });

  it('takes the modes a new session may start in and refuses anything else, unleashed included', () => {
    writeSchema5();
    fixture.openStore().close();
    fixture.inspect((db) => {
      for (const mode of ['ask', 'auto-edit', 'auto', 'read-only']) {
        db.prepare<[string, string]>('UPDATE projects SET default_mode = ? WHERE id = ?').run(mode, 'p1');
        expect(db.prepare<[string], { mode: string }>('SELECT default_mode AS mode FROM projects WHERE id = ?').get('p1')?.mode).toBe(mode);
      }
      for (const mode of ['unleashed', 'AUTO', '']) {
        expect(() => db.prepare<[string, string]>('UPDATE projects SET default_mode = ? WHERE id = ?').run(mode, 'p2')).toThrow(
          /CHECK constraint/,
        );
      }
      db.prepare<[string]>('UPDATE projects SET default_mode = NULL WHERE id = ?').run('p1');
    });
  });
});
