import type { Risk } from '../../shared/permissions';

/** What a call touches, as the permission rules see it. */
export type PermissionSubject =
  /**
   * Paths as the model gave them (the engine resolves them against the workspace). A write may say
   * what the file will hold after it, given what it holds now (null: no file), so that a change is
   * judged by what it does (a lifecycle script added to package.json); undefined when the call would fail.
   */
  | { kind: 'paths'; access: 'read' | 'write'; paths: string[]; after?: (current: string | null) => string | undefined }
  | { kind: 'command'; command: string; cwd?: string }
  | { kind: 'url'; url: string }
  | { kind: 'none' };

/**
 * A tool as the permission engine sees it: its name, its risk and what a call of it touches. Every
 * tool (tools/defineTool.ts) is one; the engine never runs or validates a tool, so it needs no more.
 */
export interface PermissionTool {
  name: string;
  risk: Risk;
  /** What rules match against; a tool without it is matched by name only. */
  subject?(args: never): PermissionSubject;
}
