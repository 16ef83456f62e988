import { realpathSync, statSync } from 'node:fs';
import type { LiveEvent, StoredEvent } from '../shared/events';
import type { OutsideContentSetting, PermissionMode } from '../shared/permissions';
import { buildInstructions } from './agent/context';
import { runLoop, type LoopOutcome } from './agent/loop';
import { SessionLog } from './agent/sessionLog';
import type { ModelConfig } from './model/config';
import { createProvider } from './model/createProvider';
import { checkToolSupport } from './model/models';
import { ModelError } from './model/provider';
import type { RetryOptions } from './model/retry';
import type { Broker } from './permissions/broker';
import type { PermissionEngine } from './permissions/engine';
import type { Policy } from './permissions/policy';
import { matchDomain } from './permissions/ruleMatchDomain';
import { parseRule } from './permissions/rules';
import { createSessionPermissions, permissionDefaults } from './permissions/sessionPermissions';
import { openStore, type Store } from './store/store';
import { createPtyTerminal } from './terminal/pty';
import { builtinTools } from './tools/builtinTools';
import type { AnyTool } from './tools/defineTool';
import { createFetchUrl, fetchUrl } from './tools/fetchUrl';
import { ToolRegistry } from './tools/registry';
import { openWorkspace } from './workspace/paths';

/**
 * The composition root: builds the services every host needs (Electron, `tether serve`, `tether run`)
 * from one data folder. Hosts differ only in how they ask the person (the broker) and what they show.
 */

export interface CoreOptions {
  /** Where the database lives. */
  dataDir: string;
}

export interface NewSession {
  workspace: string;
  task: string;
  model: ModelConfig;
  maxSteps: number;
}

export interface RunOptions {
  /** How to reach the model now; the model and API stay the ones pinned on the session. */
  model: ModelConfig;
  broker: Broker;
  policy?: Policy;
  signal: AbortSignal;
  /** The session was picked up again (a restart, `--session`): say so in the log. */
  resume?: boolean;
  /** A new message from the person, appended before the loop starts. */
  message?: string;
  onEvent?(stored: StoredEvent): void;
  onLive?(event: LiveEvent): void;
  retry?: Partial<RetryOptions>;
  /** The permission mode for this run; the person's default when absent. */
  mode?: PermissionMode;
  outsideContent?: OutsideContentSetting;
  /** A rules file named for this run (`tether run --rules`). */
  rulesFile?: string;
  /** Messages the person sent while the agent worked, taken before each model request. */
  takeQueuedMessages?(): string[];
  /** Hands the run's permission engine to the host, which may change its mode while it runs. */
  onPermissions?(engine: PermissionEngine): void;
}

export interface Core {
  readonly store: Store;
  createSession(input: NewSession): string;
  run(sessionId: string, options: RunOptions): Promise<LoopOutcome>;
  close(): void;
}

export const DEFAULT_MAX_STEPS = 50;

export function createCore(options: CoreOptions): Core {
  const store = openStore(options.dataDir);

  return {
    store,

    createSession({ workspace, task, model, maxSteps }) {
      const root = canonicalWorkspace(workspace);
      const project = store.projects.ensure(root);
      const session = store.sessions.create({
        workspace: root,
        projectId: project.id,
        model: model.model,
        api: model.api,
        baseUrl: model.baseUrl,
        maxSteps,
        title: titleFrom(task),
      });
      const log = new SessionLog(store, session.id);
      log.append({ type: 'session.started', workspace: root, model: model.model, api: model.api, baseUrl: model.baseUrl, maxSteps });
      log.append({ type: 'user.messaged', text: task });
      return session.id;
    },

    async run(sessionId, run) {
      const log = new SessionLog(store, sessionId, run.onEvent);
      const { state } = log;
      if (state.status === 'new') throw new Error(`Session ${sessionId} has no events; it cannot be run.`);
      if (run.resume) log.append({ type: 'session.resumed' });
      if (run.message) log.append({ type: 'user.messaged', text: run.message });

      // The model is pinned on the session; only where to reach it may change between runs.
      const model: ModelConfig = { ...run.model, model: state.model, api: state.api };
      if (state.steps === 0) {
        try {
          await checkToolSupport(model);
        } catch (error) {
          if (!(error instanceof ModelError)) throw error;
          const outcome: LoopOutcome = { status: 'failed', reason: error.message };
          log.append({ type: 'session.finished', ...outcome });
          return outcome;
        }
      }

      const defaults = permissionDefaults(options.dataDir);
      const permissions = await createSessionPermissions({
        store,
        dataDir: options.dataDir,
        workspace: state.workspace,
        sessionId,
        mode: run.mode ?? defaults.mode,
        outsideContent: run.outsideContent ?? defaults.outsideContent,
        ...(run.rulesFile ? { cliRulesFile: run.rulesFile } : {}),
      });
      run.onPermissions?.(permissions.engine);
      const terminal = createPtyTerminal();
      try {
        return await runLoop({
          log,
          tools: sessionTools(permissions.engine),
          provider: createProvider(model),
          instructions: buildInstructions(state.workspace),
          policy: run.policy ?? permissions.engine,
          onGrant: (grant) => permissions.remember(grant),
          canRead: (file) => permissions.engine.canRead(file),
          ...(run.takeQueuedMessages ? { takeQueuedMessages: run.takeQueuedMessages } : {}),
          broker: run.broker,
          workspace: openWorkspace(state.workspace),
          terminal,
          signal: run.signal,
          onLive: run.onLive ?? (() => {}),
          ...(run.retry ? { retry: run.retry } : {}),
        });
      } finally {
        terminal.dispose();
      }
    },

    close() {
      store.close();
    },
  };
}

/**
 * The tools a session has. fetch_url consults the session's rules for the two things it decides
 * mid-call: whether a private address may be reached, and whether a redirect to another host is followed.
 */
function sessionTools(engine: PermissionEngine): ToolRegistry {
  const allowedWithoutAsking = (url: string) =>
    engine.evaluate({ sessionId: '', callId: '', tool: fetchUrl as AnyTool, args: { url } }).action === 'allow';
  const fetchTool = createFetchUrl({
    allowPrivateHosts: (host) => hasDomainAllowRule(engine, host),
    followRedirect: (_from, to) => allowedWithoutAsking(to.href),
  });
  return new ToolRegistry([...builtinTools, fetchTool as AnyTool]);
}

/** A private address is reached only when a rule names its host outright: `fetch_url(domain:localhost)`. */
function hasDomainAllowRule(engine: PermissionEngine, host: string): boolean {
  return engine.rules().some((rule) => {
    if (rule.action !== 'allow') return false;
    const { target } = parseRule(rule.pattern);
    return target.kind === 'domain' && target.pattern !== undefined && matchDomain(target.pattern, host);
  });
}

function canonicalWorkspace(path: string): string {
  let root: string;
  try {
    root = realpathSync(path);
  } catch {
    throw new Error(`The workspace folder ${path} does not exist.`);
  }
  if (!statSync(root).isDirectory()) throw new Error(`The workspace ${path} is not a folder.`);
  return root;
}

function titleFrom(task: string): string {
  const line = task.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
