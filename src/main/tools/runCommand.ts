import { statSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { z } from 'zod';
import type { ConnectionQuestion, SandboxedRun } from '../sandbox/commandSandbox';
import { fenceHitQuestion, noSandboxQuestion } from '../permissions/runOutsideQuestions';
import { commandOnlyReads } from '../shell/commandProofs';
import { describeFenceHits } from '../sandbox/fenceHit';
import type { CommandResult } from '../terminal/terminal';
import { TimeoutHold } from '../process/timeoutHold';
import { defineTool, ToolError, type FollowUpAnswer, type FollowUpQuestion, type ToolContext, type ToolResult } from './defineTool';
import { autorunChanges } from './autorunChanges';
import { provenForms } from './provenForms';
import { plantedRepositories } from './plantedRepositories';
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
      .describe(
        `How long the command may run before it is killed, in milliseconds (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}).`,
      ),
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
    const allowed = { command, cwd, folder, workspaceRoot: ctx.workspace.root };

    // Repositories a command leaves in the workspace must not run programs when the person's own git looks at them.
    const onlyReads = commandOnlyReads(command, { cwd: folder, workspaceRoot: ctx.workspace.root });
    const planted = plantedRepositories(ctx, { onlyReads });
    const autorun = autorunChanges(ctx, { command, onlyReads });
    // Held while the command waits for a person's answer about a connection: its timeout stands still.
    const hold = new TimeoutHold();
    const terminalRun = (text: string, env?: Record<string, string>): Promise<CommandResult> =>
      ctx.terminal.run({
        command: text,
        cwd: folder,
        timeoutMs: timeout_ms,
        signal: ctx.signal,
        onData: (chunk) => ctx.onOutput(chunk),
        hold,
        ...(env ? { env } : {}),
      });
    // Runs outside the sandbox: with the person's full access, as they allowed.
    const run = async (text: string): Promise<CommandResult> => {
      await planted.begin();
      autorun.begin();
      try {
        return await terminalRun(text);
      } finally {
        autorun.checkAllowed();
        await planted.check();
      }
    };
    const connections = new ConnectionAnswers();
    const report = (result: CommandResult, sandbox: SandboxState, note?: string, fenced = false): ToolResult =>
      withConnections(
        describeRun(
          command,
          result,
          timeout_ms,
          shownFolder,
          sandbox,
          [connections.note(), note, autorun.note(), planted.note()].filter(Boolean).join('\n') || undefined,
          fenced || autorun.hit(),
        ),
        connections,
      );

    const sandbox = ctx.sandbox;
    // Only tests of other tools run without a sandbox; every host gives one.
    if (!sandbox) return report(await run(command), 'none');
    // The person's explicit choice for this run, said on the session when the run began.
    if (sandbox.off) return report(await run(command), 'off');

    if (!sandbox.availability.available) {
      const why = sandbox.availability.reason;
      if (sandbox.required) {
        throw new ToolError(
          `run_command: not run. No sandbox is available (${why}), and ${sandbox.required}, so no command runs. Use the other tools, or tell the person.`,
        );
      }
      if (sandbox.unavailable === 'refuse') {
        throw new ToolError(
          `run_command: not run. No sandbox is available (${why}), and the settings say to refuse commands then. Use the other tools, or ask the person to change Settings → Sandbox.`,
        );
      }
      if (ctx.approvedWith?.kind !== 'unavailable') {
        const answer = await confirm(ctx, noSandboxQuestion(allowed, why));
        if (!answer.allowed)
          return notRun(command, `No sandbox is available (${why}) and running the command unsandboxed was not allowed.`, answer.message);
      }
      return report(await run(command), 'unavailable');
    }

    // The person allowed it on a question that said it writes outside the fence and would run outside the sandbox.
    if (ctx.approvedWith?.kind === 'outside_write' && !sandbox.required) {
      ctx.onOutput('[tether] running the command outside the sandbox, as allowed\r\n');
      return report(
        await run(command),
        'outside',
        `The person allowed this command to run outside the sandbox (${ctx.approvedWith.reason.replace(/\.$/, '')}); it ran with their full access.`,
      );
    }

    const ask = connectionQuestion(ctx, command, cwd, hold, connections);
    let prepared: SandboxedRun;
    try {
      prepared = await sandbox.wrap(command, folder, {
        ...(ask ? { ask } : {}),
        ...provenForms(command, { cwd: folder, workspaceRoot: ctx.workspace.root }),
      });
    } catch (error) {
      throw new ToolError(`run_command: ${(error as Error).message}`);
    }
    let first: CommandResult;
    await planted.begin();
    autorun.begin();
    try {
      first = await terminalRun(prepared.command, prepared.env);
    } catch (error) {
      // Freed even when the run throws, so its mount points never outlive it.
      prepared.finish('');
      autorun.checkFenced(sandbox.fence.quarantine);
      await planted.check();
      throw error;
    }
    const outcome = prepared.finish(first.output, first.exitCode);
    autorun.checkFenced(sandbox.fence.quarantine);
    // After finish: a protected path the command made is out of the workspace by then.
    await planted.check();
    // What a process an earlier command left behind ran into is said, not asked about: this command did not do it.
    const leftBehind = outcome.hits.filter((hit) => hit.leftBehind);
    const hits = outcome.hits.filter((hit) => !hit.leftBehind);
    const earlier =
      [leftBehind.length > 0 ? `Refused: ${describeFenceHits(leftBehind)}.` : undefined, ...outcome.notes].filter(Boolean).join('\n') ||
      undefined;
    // The model reads what the command would have printed outside (no notice only the sandbox causes).
    first = { ...first, output: outcome.output ?? first.output };
    if (hits.length === 0 || first.aborted || first.timedOut) return report(first, 'sandboxed', earlier);

    const fence = describeFenceHits(hits);
    if (sandbox.required) {
      const refused = `The command hit the sandbox fence: ${fence}. It cannot run again outside the sandbox: ${sandbox.required}.`;
      return report(first, 'sandboxed', [refused, earlier].filter(Boolean).join('\n'), true);
    }
    const answer = await confirm(ctx, fenceHitQuestion(allowed, hits));
    if (!answer.allowed) {
      const who = answer.message ? ` The person said: ${answer.message}` : '';
      return report(
        first,
        'sandboxed',
        [`The command hit the sandbox fence: ${fence}. Running it again outside the sandbox was not allowed.${who}`, earlier]
          .filter(Boolean)
          .join('\n'),
        true,
      );
    }
    ctx.onOutput('\r\n[tether] running the command again outside the sandbox\r\n');
    const second = await run(command);
    return report(
      second,
      'outside',
      `The first run hit the sandbox fence (${fence}); the person allowed running it again outside the sandbox, and this is that run.`,
    );
  },
});

/** What became of each connection the command was asked about while it ran. */
interface ConnectionAnswer {
  host: string;
  port: number;
  allowed: boolean;
  /** The entry Allow always added to the project's fence. */
  always?: string;
  /** The command stopped waiting (it ended) before anyone answered. */
  withdrawn?: boolean;
  message?: string;
  byPerson?: boolean;
}

class ConnectionAnswers {
  private readonly answers: ConnectionAnswer[] = [];

  add(answer: ConnectionAnswer): void {
    this.answers.push(answer);
  }

  /** The hosts the command reached by an allow given while it ran (`host:port`): what it printed may be outside content. */
  reached(): string[] {
    return this.answers.filter((answer) => answer.allowed).map((answer) => `${answer.host}:${answer.port}`);
  }

  /** For the model: one line per host. */
  note(): string | undefined {
    if (this.answers.length === 0) return undefined;
    return this.answers
      .map(({ host, port, allowed, always, withdrawn, message, byPerson }) => {
        if (always)
          return `The command connected to ${host}:${port} after the person allowed it always: ${always} is now on this project's allowed domains (Settings → Sandbox).`;
        if (allowed) return `The command connected to ${host}:${port} after it was allowed for this command.`;
        if (withdrawn)
          return `The command's connection to ${host}:${port} was refused: the command ended before anyone answered the question about it.`;
        const said = message ? (byPerson ? ` The person said: ${message}` : ` ${message}`) : '';
        return `The command's connection to ${host}:${port} was refused: the sandbox fence does not allow it, and it was denied when asked.${said}`;
      })
      .join('\n');
  }
}

/**
 * How run_command asks about a connection its fence does not allow: through the call's own question
 * (ctx.askNetwork, the approval gate, which also keeps an "Allow always" in the project's fence), with
 * the command's timeout held while it waits. Without ctx.askNetwork (tests of the tool alone) nothing
 * is asked and it is refused.
 */
function connectionQuestion(
  ctx: ToolContext,
  command: string,
  cwd: string | undefined,
  hold: TimeoutHold,
  answers: ConnectionAnswers,
): ConnectionQuestion | undefined {
  const askNetwork = ctx.askNetwork;
  if (!askNetwork) return undefined;
  return ({ host, port, signal }) =>
    hold.during(async () => {
      const answer = await askNetwork({ host, port, command, args: { command, ...(cwd ? { cwd } : {}) }, signal });
      answers.add({
        host,
        port,
        allowed: answer.allowed,
        ...(answer.always ? { always: answer.always } : {}),
        ...(answer.by === 'policy' && signal.aborted ? { withdrawn: true } : {}),
        ...(answer.message ? { message: answer.message } : {}),
        ...(answer.by === 'person' ? { byPerson: true } : {}),
      });
      return answer.allowed;
    });
}

function withConnections(result: ToolResult, connections: ConnectionAnswers): ToolResult {
  const reached = connections.reached();
  if (reached.length === 0 || result.metadata === null || typeof result.metadata !== 'object' || Array.isArray(result.metadata))
    return result;
  return { ...result, metadata: { ...result.metadata, reachedHosts: reached } };
}

/** Where the command ran: in the fence, outside it after a fence hit, unsandboxed (none available), with the sandbox turned off for the run (--no-sandbox), or with no sandbox at all (tests). */
type SandboxState = 'sandboxed' | 'outside' | 'unavailable' | 'off' | 'none';

function describeRun(
  command: string,
  result: CommandResult,
  timeoutMs: number,
  shownFolder: string,
  sandbox: SandboxState,
  note?: string,
  fenced = false,
): ToolResult {
  const body = result.output.replace(/\n+$/, '');
  return {
    title: `${titleVerb(result)}: ${shortCommand(command)}`,
    output: `${body === '' ? '(no output)' : body}\n\n${statusLine(result, timeoutMs)}${note ? `\n${note}` : ''}`,
    // A shell that survives the timeout's SIGTERM may still exit 0; the command did not finish.
    // A command stopped by the fence failed, even when it went on to exit 0.
    isError: result.exitCode !== 0 || result.timedOut || result.aborted || fenced,
    metadata: {
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      aborted: result.aborted,
      durationMs: result.durationMs,
      cwd: shownFolder,
      sandbox,
    },
  };
}

async function confirm(ctx: ToolContext, question: FollowUpQuestion): Promise<FollowUpAnswer> {
  if (!ctx.confirm) return { allowed: false, message: 'Nobody can be asked here.' };
  return ctx.confirm(question);
}

function notRun(command: string, why: string, message: string | undefined): ToolResult {
  return {
    title: `Denied: ${shortCommand(command)}`,
    output: `Not run: ${why}${message ? ` The person said: ${message}` : ''}`,
    isError: true,
    metadata: { sandbox: 'unavailable', ran: false },
  };
}

function assertFolder(folder: string, shown: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(folder).isDirectory();
  } catch {
    throw new ToolError(
      `run_command: the folder "${shown}" does not exist in the workspace; pass an existing folder relative to the workspace root, or leave out cwd to run in the root.`,
    );
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
  if (signal) return `exit code ${code} (a process was killed by ${signal})${result.limit ? `; ${result.limit}` : ''}`;
  return `exit code ${code}${result.limit ? ` (${result.limit})` : ''}`;
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
