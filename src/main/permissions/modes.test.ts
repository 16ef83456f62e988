import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../shared/permissions';
import { modeDefault, modeForbids, type ActionClass } from './modes';

// auto's column is for an action that is not a command held by the sandbox; see below for those.
const table: Record<ActionClass, Record<PermissionMode, 'allow' | 'ask' | 'deny'>> = {
  none: { ask: 'allow', 'auto-edit': 'allow', auto: 'allow', 'read-only': 'allow', unleashed: 'allow' },
  read: { ask: 'allow', 'auto-edit': 'allow', auto: 'allow', 'read-only': 'allow', unleashed: 'allow' },
  'read-outside': { ask: 'ask', 'auto-edit': 'ask', auto: 'ask', 'read-only': 'ask', unleashed: 'ask' },
  edit: { ask: 'ask', 'auto-edit': 'allow', auto: 'allow', 'read-only': 'deny', unleashed: 'ask' },
  'edit-outside': { ask: 'ask', 'auto-edit': 'ask', auto: 'ask', 'read-only': 'deny', unleashed: 'ask' },
  exec: { ask: 'ask', 'auto-edit': 'ask', auto: 'ask', 'read-only': 'deny', unleashed: 'ask' },
  egress: { ask: 'ask', 'auto-edit': 'ask', auto: 'ask', 'read-only': 'deny', unleashed: 'ask' },
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

  it('lets a command the sandbox holds run on its own in auto mode, and only there', () => {
    expect(modeDefault('auto', 'exec', { command: true, fenced: true }).action).toBe('allow');
    expect(modeDefault('auto', 'read-outside', { command: true, fenced: true }).action).toBe('allow');
    expect(modeDefault('auto', 'edit-outside', { command: true, fenced: true }).action).toBe('ask');
    expect(modeDefault('auto', 'egress', { command: true, fenced: true }).action).toBe('ask');
    // No sandbox: auto is ask, and says why.
    expect(modeDefault('auto', 'exec', { command: true, fenced: false })).toMatchObject({
      action: 'ask',
      reason: expect.stringMatching(/no sandbox/),
    });
    // Not a command (an MCP tool): the sandbox does not hold it.
    expect(modeDefault('auto', 'exec', { fenced: true }).action).toBe('ask');
    for (const mode of ['ask', 'auto-edit', 'read-only', 'unleashed'] as PermissionMode[]) {
      expect(modeDefault(mode, 'exec', { command: true, fenced: true }).action).toBe('ask');
    }
  });

  it('explains a read-only denial with what to do', () => {
    expect(modeForbids('read-only', 'exec')).toMatch(/read-only mode.*runs a program.*Switch the mode/);
  });
});
