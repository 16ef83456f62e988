import { z } from 'zod';
import type { Risk } from '../../src/shared/permissions';
import type { AnyTool, PermissionSubject } from '../../src/main/tools/defineTool';
import type { PermissionQuery } from '../../src/main/permissions/policyVerdict';

/**
 * Tools shaped like the built-in ones as the permission engine sees them (name, risk,
 * subject), so the engine's tests do not wait on every real tool declaring its subject.
 */

function stand(name: string, risk: Risk, subject?: (args: Record<string, unknown>) => PermissionSubject): AnyTool {
  return {
    name,
    description: `${name} (test stand-in)`,
    risk,
    parameters: z.unknown(),
    summarize: () => name,
    ...(subject ? { subject: subject as (args: never) => PermissionSubject } : {}),
    execute: async () => ({ title: name, output: '' }),
  };
}

const paths =
  (access: 'read' | 'write') =>
  (args: Record<string, unknown>): PermissionSubject => ({
    kind: 'paths',
    access,
    paths: Array.isArray(args.paths) ? (args.paths as string[]) : [String(args.path ?? '.')],
  });

export const testTools = {
  read_file: stand('read_file', 'read', paths('read')),
  list_files: stand('list_files', 'read', paths('read')),
  search_code: stand('search_code', 'read', paths('read')),
  edit_file: stand('edit_file', 'edit', paths('write')),
  write_file: stand('write_file', 'edit', paths('write')),
  run_command: stand('run_command', 'exec', (args) => ({
    kind: 'command',
    command: String(args.command),
    ...(typeof args.cwd === 'string' ? { cwd: args.cwd } : {}),
  })),
  fetch_url: stand('fetch_url', 'egress', (args) => ({ kind: 'url', url: String(args.url) })),
  update_plan: stand('update_plan', 'none'),
};

export function mcpTool(name: string, risk: Risk = 'egress'): AnyTool {
  return stand(name, risk);
}

let calls = 0;

export function query(tool: AnyTool, args: Record<string, unknown> = {}, extra: Partial<PermissionQuery> = {}): PermissionQuery {
  calls++;
  return { sessionId: 's-test', callId: `c-${calls}`, tool, args, ...extra };
}

export function command(text: string, extra: Partial<PermissionQuery> = {}): PermissionQuery {
  return query(testTools.run_command, { command: text }, extra);
}
