import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../shared/permissions';
import { modeDefault, modeForbids, type ActionClass } from './modes';

const table: Record<ActionClass, Record<PermissionMode, 'allow' | 'ask' | 'deny'>> = {
  none: { ask: 'allow', 'auto-edit': 'allow', 'read-only': 'allow', unleashed: 'allow' },
  read: { ask: 'allow', 'auto-edit': 'allow', 'read-only': 'allow', unleashed: 'allow' },
  'read-outside': { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'ask', unleashed: 'ask' },
  edit: { ask: 'ask', 'auto-edit': 'allow', 'read-only': 'deny', unleashed: 'ask' },
  'edit-outside': { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'deny', unleashed: 'ask' },
  exec: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'deny', unleashed: 'ask' },
  egress: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'deny', unleashed: 'ask' },
};

describe('mode defaults', () => {
  // Unleashed turns asks into allows later, in the engine, where the asks that must hold are known.
  for (const [cls, byMode] of Object.entries(table)) {
    for (const [mode, expected] of Object.entries(byMode)) {
      it(`${cls} in ${mode} mode: ${expected}`, () => {
        const forbidden = modeForbids(mode as PermissionMode, cls as ActionClass);
        const action = forbidden ? 'deny' : modeDefault(mode as PermissionMode, cls as ActionClass).action;
        expect(action).toBe(expected);
      });
    }
  }

  it('explains a read-only denial with what to do', () => {
    expect(modeForbids('read-only', 'exec')).toMatch(/read-only mode.*runs a program.*Switch the mode/);
  });
});
