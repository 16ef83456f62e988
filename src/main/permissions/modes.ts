import type { PermissionMode, PolicyAction } from '../../shared/permissions';

/**
 * What a call does when no rule decided it, by mode. The classes are finer than a tool's risk: a
 * run_command whose every part is on the read-only list reads, and a read outside the workspace is
 * not the workspace reading it is allowed to do.
 *
 *                      ask     auto-edit  auto        read-only  unleashed
 *   none, read         allow   allow      allow       allow      allow
 *   read outside       ask     ask        fenced*     ask        allow
 *   edit (inside)      ask     allow      allow       deny       allow
 *   edit outside       ask     ask        ask         deny       allow   (a command's redirection; edit tools are refused)
 *   exec               ask     ask        fenced*     deny       allow
 *   egress             ask     ask        ask         deny       allow
 *
 * fenced*: auto lets what runs inside the sandbox run on its own (a command, and what it reads; the
 * fence decides at run time what it may touch), and asks for everything that would leave it: a tool
 * the sandbox does not hold (fetch_url, an MCP call), a write outside, and every command when no
 * sandbox holds this session's commands (no bubblewrap, --no-sandbox), where auto is ask.
 *
 * Deny rules, the path guard, and the built-in asks for .git/ and .tether/ hold in every mode.
 */
export type ActionClass = 'none' | 'read' | 'read-outside' | 'edit' | 'edit-outside' | 'exec' | 'egress';

const WHAT: Record<ActionClass, string> = {
  none: 'changes nothing',
  read: 'only reads the workspace',
  'read-outside': 'reads outside the workspace',
  edit: 'changes files',
  'edit-outside': 'writes outside the workspace',
  exec: 'runs a program',
  egress: 'can send data out',
};

/** Where an action happens, for auto mode: a command, and whether the sandbox holds this session's commands. */
export interface Where {
  command?: boolean;
  fenced?: boolean;
}

/** Read-only mode forbids everything but reading; returns why, or undefined when the mode allows the class. */
export function modeForbids(mode: PermissionMode, cls: ActionClass): string | undefined {
  if (mode !== 'read-only' || cls === 'none' || cls === 'read' || cls === 'read-outside') return undefined;
  return `The session is in read-only mode, and this call ${WHAT[cls]}; only reading is allowed. Switch the mode to ask (or auto-edit) to approve it.`;
}

/**
 * The action for a call no rule decided (before unleashed turns asks into allows), with a verb phrase
 * for the reason: "`make build` runs a program that no rule allows".
 */
export function modeDefault(mode: PermissionMode, cls: ActionClass, where: Where = {}): { action: PolicyAction; reason: string } {
  const fenced = mode === 'auto' && where.command === true && where.fenced === true;
  switch (cls) {
    case 'none':
      return { action: 'allow', reason: 'changes nothing' };
    case 'read':
      return { action: 'allow', reason: 'only reads' };
    case 'read-outside':
      if (fenced) return { action: 'allow', reason: 'reads outside the workspace inside the sandbox, which auto mode lets run' };
      return { action: 'ask', reason: 'reads outside the workspace' };
    case 'edit':
      if (mode === 'auto-edit' || mode === 'auto')
        return { action: 'allow', reason: `edits inside the workspace, which ${mode} mode allows` };
      return { action: 'ask', reason: `changes files, and edits ask in ${mode} mode` };
    case 'edit-outside':
      return { action: 'ask', reason: 'writes outside the workspace' };
    case 'exec':
      if (fenced) return { action: 'allow', reason: 'runs inside the sandbox, which auto mode lets run on its own' };
      if (mode === 'auto' && where.command)
        return {
          action: 'ask',
          reason: 'runs a program that no rule allows, and auto mode asks as ask mode does: no sandbox holds this session’s commands',
        };
      return { action: 'ask', reason: 'runs a program that no rule allows' };
    case 'egress':
      return { action: 'ask', reason: 'can send data out, and no rule allows it' };
  }
}
