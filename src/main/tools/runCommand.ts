import { statSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { z } from 'zod';
import type { CommandResult } from '../terminal/terminal';
import { defineTool, ToolError } from './defineTool';
import description from './runCommand.txt?raw';

const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;
const TITLE_COMMAND_CHARS = 80;

export const runCommand = defineTool({
  name: 'run_command',
  description,
  risk: 'exec',
  parameters: z.object({
    /** The command line, run by bash. */
    command: z.string().describe('The command line to run with bash, e.g. "npm test -- src/auth". Compound commands (&&, |, ;) are fine.'),
    /** The folder to run in. */
    cwd: z.string().optional().describe('The folder to run in, relative to the workspace root. Default: the workspace root.'),
    /** The timeout, in milliseconds. */
    timeout_ms: z
      .number()
      .int()
      .min(1)
      .max(MAX_TIMEOUT_MS)
      .default(DEFAULT_TIMEOUT_MS)
      .describe(`How long the command may run before it is killed, in milliseconds (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}).`),
    /** Why, for the person approving. */
    description: z.string().optional().describe('Why you are running this command, in a few words, for the person who approves it.'),
  }),
  subject: ({ command, cwd }) => ({ kind: 'command', command, ...(cwd ? { cwd } : {}) }),
  summarize: ({ command, cwd }) => (cwd && cwd !== '.' ? `${command}  (in ${cwd})` : command),

  async execute({ command, cwd, timeout_ms }, ctx) {
    if (command.trim() === '') {
      throw new ToolError('run_command: "command" is empty; pass the shell command to run, e.g. "npm test".');
    }
    const folder = ctx.workspace.resolve(cwd ?? '.');
    const shownFolder = ctx.workspace.relative(folder);
    assertFolder(folder, shownFolder);

    const result = await ctx.terminal.run({
      command,
      cwd: folder,
      timeoutMs: timeout_ms,
      signal: ctx.signal,
      onData: (chunk) => ctx.onOutput(chunk),
    });

    const body = result.output.replace(/\n+$/, '');
    return {
      title: `${titleVerb(result)}: ${shortCommand(command)}`,
      output: `${body === '' ? '(no output)' : body}\n\n${statusLine(result, timeout_ms)}`,
      // A shell that survives the timeout's SIGTERM may still exit 0; the command did not finish.
      isError: result.exitCode !== 0 || result.timedOut || result.aborted,
      metadata: {
        exitCode: result.exitCode,
        signal: result.signal,
        timedOut: result.timedOut,
        aborted: result.aborted,
        durationMs: result.durationMs,
        cwd: shownFolder,
      },
    };
  },
});

function assertFolder(folder: string, shown: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(folder).isDirectory();
  } catch {
    throw new ToolError(`run_command: the folder "${shown}" does not exist in the workspace; pass an existing folder relative to the workspace root, or leave out cwd to run in the root.`);
  }
  if (!isDirectory) {
    throw new ToolError(`run_command: "${shown}" is a file, not a folder; pass the folder to run in as cwd.`);
  }
}

/** The last line the model reads: how the command ended, and what to do about it when that helps. */
function statusLine(result: CommandResult, timeoutMs: number): string {
  if (result.timedOut) {
    return `timed out after ${formatSeconds(timeoutMs)} s (the whole process group was killed); if it needs longer, pass a larger timeout_ms, or run it in a way that does not wait for input`;
  }
  if (result.aborted) return 'stopped before it finished: the session was stopped (the whole process group was killed)';
  if (result.exitCode === null) return `killed by ${result.signal ?? 'a signal'}`;
  const code = result.exitCode;
  if (code === 127) return 'exit code 127 (command not found: check the name or install it)';
  if (code === 126) return 'exit code 126 (found but not executable: check its permissions, or run it with its interpreter)';
  const signal = code > 128 ? signalName(code - 128) : null;
  if (signal) return `exit code ${code} (a process was killed by ${signal})`;
  return `exit code ${code}`;
}

function titleVerb(result: CommandResult): string {
  if (result.timedOut) return 'Timed out';
  if (result.aborted) return 'Stopped';
  if (result.exitCode === null) return `Killed by ${result.signal ?? 'a signal'}`;
  return result.exitCode === 0 ? 'Ran' : `Failed (exit ${result.exitCode})`;
}

function shortCommand(command: string): string {
  const lines = command.trim().split('\n');
  const first = lines[0] ?? '';
  const more = lines.length > 1 ? ' …' : '';
  return first.length > TITLE_COMMAND_CHARS ? `${first.slice(0, TITLE_COMMAND_CHARS - 1)}…` : `${first}${more}`;
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return Number.isInteger(seconds) ? String(seconds) : String(Math.round(seconds * 10) / 10);
}

function signalName(signal: number): string | null {
  for (const [name, value] of Object.entries(osConstants.signals)) if (value === signal) return name;
  return null;
}
