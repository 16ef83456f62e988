import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { SessionEndStatus, StoredEvent } from '../../shared/events';
import { PermissionMode } from '../../shared/permissions';
import { DEFAULT_MAX_STEPS } from '../agent/maxSteps';
import { createCore } from '../core';
import { resolveModelConfig } from '../model/config';
import { HeadlessBroker } from '../permissions/broker';
import { CliError, dataDirFrom } from './cliError';
import { formatEvent } from './formatEvent';
import { mcpServerFolder, readMcpConfigFile } from '../mcp/loadMcpServers';
import { McpConfigError } from '../mcp/mcpServerConfig';
import { policyRefusal, readManagedPolicy } from '../settings/managedPolicy';
import { checkSandboxAvailability } from '../sandbox/availability';
import type { McpServerSpec } from '../mcp/mcpServerSpec';
import { runUsage } from './usage';
import { DeskSession } from './desk/deskSession';
import { DESK_EXIT_CODES, DeskFailure } from './desk/deskLink';

const exitCodes: Record<SessionEndStatus, number> = { done: 0, max_steps: 2, failed: 3, aborted: 130 };

/** `tether run`: one task, headless, with its progress on stderr and its answer on stdout. */
export async function headlessRun(argv: string[]): Promise<number> {
  if (argv.some((arg) => /^--desk-token(=|$)/.test(arg))) {
    throw new CliError(
      'The desk token is read from TETHER_DESK_TOKEN only, never from the command line, where other users and logs can see it.',
    );
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      cwd: { type: 'string' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      'max-tokens': { type: 'string' },
      api: { type: 'string' },
      'max-steps': { type: 'string' },
      session: { type: 'string' },
      unleashed: { type: 'boolean', default: false },
      'no-sandbox': { type: 'boolean', default: false },
      'allow-host': { type: 'string', multiple: true },
      mode: { type: 'string' },
      rules: { type: 'string' },
      'mcp-config': { type: 'string' },
      json: { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      desk: { type: 'string' },
      'desk-fingerprint': { type: 'string' },
      'desk-wait': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${runUsage}\n`);
    return 0;
  }
  const task = positionals.join(' ').trim();
  if (!values.session && task === '') throw new CliError(`tether run needs a task.\n\n${runUsage}`);
  const maxSteps = parseMaxSteps(values['max-steps']);
  const allowHosts = (values['allow-host'] ?? []).map(parseAllowedHost);
  const mode = values.unleashed ? 'unleashed' : parseRunMode(values.mode);
  const model = resolveModelConfig({ baseUrl: values['base-url'], model: values.model, api: values.api, maxTokens: values['max-tokens'] });
  const deskOptions = values.desk === undefined ? undefined : deskRunOptions(values);

  // Before anything is written: a run the managed policy forbids creates no session.
  const refused = policyRefusal(readManagedPolicy(), {
    unleashed: values.unleashed,
    noSandbox: values['no-sandbox'],
    baseUrl: model.baseUrl,
  });
  if (refused) throw new CliError(refused);

  const workspace = resolve(values.cwd ?? process.cwd());
  const dataDir = dataDirFrom(values['data-dir']);
  // The person's servers start in a folder of their own, never the workspace (mcpServerFolder).
  const mcpServers = values['mcp-config'] ? readMcpConfig(values['mcp-config'], mcpServerFolder(dataDir)) : undefined;
  const controller = new AbortController();
  let deskGone: DeskFailure | undefined;
  // Before anything is written or the model asked: a desk that refuses this runner stops the run here.
  const desk = deskOptions
    ? await joinDesk({
        ...deskOptions,
        workspace,
        model: values.model ?? model.model,
        onStop: (reason) => controller.abort(new Error(reason)),
        onGone: (failure) => {
          deskGone = failure;
          controller.abort(new Error(failure.message));
        },
      })
    : undefined;
  if (desk)
    process.stderr.write(
      `tether: reporting to the desk at ${deskOptions!.url} as runner ${desk.runner}; every request waits for its answer.\n`,
    );

  // No checkpoint worker: a new thread's heap would put back the young generation leanHeap.ts keeps small.
  const core = createCore({ dataDir, backgroundCheckpoints: false });
  // Servers that fail to start, or give up after crashes, are said on stderr: the run goes on without their tools.
  const stopReporting = core.mcp.onChange((status) => {
    if (status.state === 'failed' && status.error) process.stderr.write(`tether: ${status.error}\n`);
  });
  try {
    let sessionId = values.session;
    if (sessionId) {
      const session = core.store.sessions.get(sessionId);
      if (!session) throw new CliError(`No session ${sessionId}. List them with: tether sessions`);
      if (values.model && values.model !== session.model) {
        throw new CliError(`Session ${sessionId} is pinned to the model ${session.model}; start a new session to use ${values.model}.`);
      }
    } else {
      sessionId = core.createSession({ workspace, task, model, maxSteps });
    }
    desk?.attach(core.store.events, sessionId);

    let interrupts = 0;
    const onInterrupt = () => {
      interrupts += 1;
      if (interrupts > 1) process.exit(130); // a second Ctrl-C does not wait for the cleanup
      process.stderr.write('\nStopping… (Ctrl-C again to quit at once)\n');
      controller.abort();
    };
    process.on('SIGINT', onInterrupt);
    process.on('SIGTERM', onInterrupt);

    if (values['no-sandbox']) {
      process.stderr.write(
        'tether: WARNING: --no-sandbox: commands in this run are not sandboxed. They can read your secrets, write anywhere you can and reach any host. This is kept on the session.\n',
      );
    }
    if (mode === 'auto') {
      const why = values['no-sandbox'] ? '--no-sandbox turned the sandbox off' : sandboxMissing();
      if (why)
        process.stderr.write(
          `tether: --mode auto works as ask in this run: ${why}, and auto lets only what the sandbox holds run on its own.\n`,
        );
    }
    const json = values.json;
    let streamedText = false;
    const onEvent = (stored: StoredEvent): void => {
      desk?.onEvent(stored);
      if (json) {
        process.stdout.write(`${JSON.stringify(stored)}\n`);
        return;
      }
      let shown = stored;
      if (stored.event.type === 'model.responded' && streamedText) {
        // The answer's text already went to stdout as it streamed; the rest of the response goes to stderr.
        streamedText = false;
        process.stdout.write('\n');
        shown = { ...stored, event: { ...stored.event, items: stored.event.items.filter((item) => item.type !== 'assistant') } };
      }
      for (const line of formatEvent(shown)) process.stderr.write(`${line}\n`);
    };
    // A new session's first events were written when it was created, before the run began.
    if (!values.session) for (const stored of core.store.events.list(sessionId)) onEvent(stored);
    try {
      const outcome = await core.run(sessionId, {
        model,
        broker: desk?.broker ?? new HeadlessBroker({ unleashed: values.unleashed }),
        ...(desk ? { onPermissions: (engine) => desk.onPermissions(engine), grants: (permissions) => desk.grants(permissions) } : {}),
        ...(values['no-sandbox'] ? { sandboxOffBy: 'tether run --no-sandbox' } : {}),
        ...(allowHosts.length > 0 ? { allowHosts } : {}),
        ...(mode ? { mode } : {}),
        ...(values.rules ? { rulesFile: resolve(values.rules) } : {}),
        ...(mcpServers ? { mcpServers } : {}),
        signal: controller.signal,
        resume: Boolean(values.session),
        ...(values.session && task ? { message: task } : {}),
        onEvent,
        onLive(event) {
          if (json || event.type !== 'model.text_delta') return;
          streamedText = true;
          process.stdout.write(event.text);
        },
      });
      if (!json) process.stderr.write(`session ${sessionId}\n`);
      if (deskGone) {
        process.stderr.write(`tether: ${deskGone.message}\n`);
        return DESK_EXIT_CODES[deskGone.kind];
      }
      if (outcome.status !== 'done') process.stderr.write(`tether: ${outcome.reason}\n`);
      return exitCodes[outcome.status];
    } finally {
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onInterrupt);
    }
  } finally {
    stopReporting();
    await desk?.close();
    await core.mcp.close();
    core.close();
  }
}

interface DeskRunOptions {
  url: string;
  token: string;
  fingerprint?: string;
  waitMs: number;
}

/** --desk's options, checked before anything runs: never with --unleashed, the token only from the environment. */
function deskRunOptions(values: { desk?: string; unleashed?: boolean; 'desk-fingerprint'?: string; 'desk-wait'?: string }): DeskRunOptions {
  if (values.unleashed) {
    throw new CliError(
      '--unleashed and --desk together are refused: with --desk the person at the desk answers every request; --unleashed would answer them all for them.',
    );
  }
  const token = process.env.TETHER_DESK_TOKEN?.trim();
  if (!token) {
    throw new CliError(
      "tether run --desk needs this runner's token in TETHER_DESK_TOKEN (make one at the desk: tether desk tokens create NAME).",
      DESK_EXIT_CODES.bad_token,
    );
  }
  return {
    url: values.desk!,
    token,
    ...(values['desk-fingerprint'] ? { fingerprint: values['desk-fingerprint'] } : {}),
    waitMs: parseWait(values['desk-wait']),
  };
}

/** --desk-wait: 90s, 10m, 1h, 500ms, or a number of seconds; 10 minutes when absent. */
function parseWait(text: string | undefined): number {
  if (text === undefined) return 10 * 60_000;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const ms = match ? Math.round(Number(match[1]) * units[match[2] ?? 's']!) : NaN;
  if (!(ms >= 1 && ms <= 7 * 24 * 3_600_000)) {
    throw new CliError(`--desk-wait takes how long a request waits for the desk, such as 90s, 10m or 1h (at most 7 days); not "${text}".`);
  }
  return ms;
}

/** Joins the desk, or stops the run with the failure's own exit status. */
async function joinDesk(options: Parameters<typeof DeskSession.join>[0]): Promise<DeskSession> {
  try {
    return await DeskSession.join(options);
  } catch (error) {
    if (error instanceof DeskFailure) throw new CliError(error.message, DESK_EXIT_CODES[error.kind]);
    throw error;
  }
}

function readMcpConfig(file: string, startIn: string): McpServerSpec[] {
  try {
    return readMcpConfigFile(file, startIn);
  } catch (error) {
    if (error instanceof McpConfigError) throw new CliError(error.message);
    throw error;
  }
}

/** Why no sandbox can hold this run's commands, or undefined when one can. */
function sandboxMissing(): string | undefined {
  const availability = checkSandboxAvailability();
  return availability.available ? undefined : `no sandbox is available (${availability.reason})`;
}

function parseRunMode(text: string | undefined): PermissionMode | undefined {
  if (text === undefined) return undefined;
  if (text === 'unleashed') throw new CliError('Use --unleashed (for this run only) rather than --mode unleashed.');
  const parsed = PermissionMode.safeParse(text);
  if (!parsed.success) throw new CliError(`--mode is one of ask, auto-edit, auto, read-only; not "${text}".`);
  return parsed.data;
}

/**
 * A host `--allow-host` opens for the run, as the project's allowed domains are written: a name
 * (`registry.npmjs.org`), a wildcard (`*.example.com`), either with a port, an address with its port
 * (`127.0.0.1:4873`, `[::1]:8080`).
 */
function parseAllowedHost(text: string): string {
  const host = text.trim().toLowerCase();
  const name = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;
  const v6 = /^\[[0-9a-f:.]+\](:\d{1,5})?$/;
  if (!name.test(host) && !v6.test(host)) {
    throw new CliError(
      `--allow-host takes a host as Settings → Sandbox writes it (registry.npmjs.org, *.example.com, 127.0.0.1:4873), not "${text}".`,
    );
  }
  return host;
}

function parseMaxSteps(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_STEPS;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new CliError(`--max-steps takes a whole number of 1 or more, not "${text}".`);
  return value;
}
