import type { LiveEvent, SessionEvent, StoredEvent } from '../shared/events';
import type { OutsideContentSetting, PermissionMode } from '../shared/permissions';
import { compactConversation, type CompactionResult } from './agent/compaction';
import { contextBudgetFor } from './agent/contextBudget';
import { systemPromptFor } from './agent/systemPrompt';
import { readAppSettings } from './settings/appSettings';
import { modelFailureOf, runLoop, type LoopOutcome } from './agent/loop';
import { SessionLog } from './store/sessionLog';
import type { ModelConfig } from './model/config';
import { createProvider } from './model/createProvider';
import { checkToolSupport } from './model/models';
import { ModelError } from './model/provider';
import type { RetryOptions } from './model/retry';
import type { Broker } from './permissions/broker';
import type { PermissionEngine } from './permissions/engine';
import type { Policy } from './permissions/policyVerdict';
import { matchDomain } from './permissions/ruleMatchDomain';
import { parseRule } from './permissions/ruleSyntax';
import { createSessionPermissions, permissionDefaults, type SessionPermissions } from './permissions/sessionPermissions';
import type { GrantKeeper } from './permissions/grant';
import { openStore, type Store } from './store/store';
import { createPtyTerminal } from './terminal/pty';
import { commandEnvironment } from './workspace/commandEnvironment';
import { effectiveLimits } from './process/commandLimits';
import { avoidInProgramSearchPath, withCommandSearchPath } from './workspace/programSearchPath';
import { hookPlacement } from './hooks/hookPlacement';
import { initShellParser } from './shell/parser';
import type { ConfiguredHook } from './hooks/hookSettings';
import { SessionHooks, type HookRunPlan } from './hooks/sessionHooks';
import { sessionHookConfig } from './hooks/sessionHookConfig';
import { watchingAutorunFiles } from './hooks/autorunAfterHook';
import { BUILTIN_TOOL_NAMES } from '../shared/toolCatalog';
import { builtinTools } from './tools/builtinTools';
import type { AnyTool } from './tools/defineTool';
import { createFetchUrl, fetchUrl } from './tools/fetchUrl';
import { ToolRegistry } from './tools/registry';
import { realFolder } from './workspace/filePaths';
import { openWorkspace } from './workspace/paths';
import { agentWritable, createCommandSandbox, turnedOffSandbox, type CommandSandbox } from './sandbox/commandSandbox';
import { projectFence, readSandboxSettings } from './sandbox/fenceSettings';
import { removeFenceLeftovers } from './sandbox/fence';
import { pruneSandboxLeftovers } from './sandbox/sandboxLeftovers';
import { pruneSessionTemps, SESSION_TEMP_DAYS } from './sandbox/sessionTemp';
import { Checkpoints } from './checkpoints/checkpoints';
import { mayChangeFiles } from './checkpoints/mayChangeFiles';
import { SessionShadowRepos } from './checkpoints/sessionShadowRepos';
import type { McpTimings } from './mcp/mcpConnection';
import { McpHub } from './mcp/mcpHub';
import { projectServerFence } from './mcp/projectServerFence';
import type { SandboxFence } from '../shared/sandbox';
import type { McpServerSpec } from './mcp/mcpServerSpec';
import { sessionMcpServers } from './mcp/loadMcpServers';
import { outsideContentWithFloor, policyRefusal, readManagedPolicy, type ManagedPolicy } from './settings/managedPolicy';

/**
 * The composition root: builds the services every host needs (Electron, `tether serve`, `tether run`)
 * from one data folder. Hosts differ only in how they ask the person (the broker) and what they show.
 */

export interface CoreOptions {
  /** Where the database lives. */
  dataDir: string;
  /** How long MCP servers may take to start, and how they are restarted (tests shorten them). */
  mcpTimings?: Partial<McpTimings>;
  /** Off: the store checkpoints its WAL in the commits, with no worker thread (see cli/leanHeap.ts). */
  backgroundCheckpoints?: boolean;
}

export interface NewSession {
  workspace: string;
  task: string;
  model: ModelConfig;
  maxSteps: number;
  /** The session's id, when the host chose it first (a worktree's branch is named after it). */
  id?: string;
  /** The project the session belongs to, when it works in another folder (its own git worktree); `workspace` otherwise. */
  project?: string;
  /** Facts about how the session was set up (its worktree), logged after its start and before the task. */
  setup?: SessionEvent[];
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
  /** MCP servers named for this run (`tether run --mcp-config`), on top of the person's and the project's. */
  mcpServers?: McpServerSpec[];
  /** Messages the person sent while the agent worked, taken before each model request. */
  takeQueuedMessages?(): string[];
  /** True once when the person asked to compact the conversation since the last turn began ("Compact now"). */
  takeCompactRequest?(): boolean;
  /** The OS sandbox for this run's commands; built from the person's sandbox settings when absent. */
  sandbox?: CommandSandbox;
  /**
   * The person turned the sandbox off for this run (how, in words: `tether run --no-sandbox`): its
   * commands run with their full access. Said on the session, for good, before anything runs.
   */
  sandboxOffBy?: string;
  /** Hosts commands may reach in this run only, besides the project's allowed domains (`tether run --allow-host`). */
  allowHosts?: readonly string[];
  /** Hands the run's permission engine to the host, which may change its mode while it runs. */
  onPermissions?(engine: PermissionEngine): void;
  /**
   * Who keeps this run's "Allow always" grants, where not the session's own permissions (stored in
   * this data folder): a remote run's desk keeps the ones for its repository on the runner.
   */
  grants?(permissions: SessionPermissions): GrantKeeper;
}

export interface CompactOptions {
  model: ModelConfig;
  signal: AbortSignal;
  onEvent?(stored: StoredEvent): void;
  retry?: Partial<RetryOptions>;
}

export interface Core {
  readonly store: Store;
  /** The MCP servers this host runs; they stop with it. */
  readonly mcp: McpHub;
  /** The sessions' shadow repositories, opened once for checkpoints, rewind and the live diff. */
  readonly shadowRepos: SessionShadowRepos;
  /** Per-step snapshots of the sessions' folders (rewind restores them). */
  readonly checkpoints: Checkpoints;
  createSession(input: NewSession): string;
  run(sessionId: string, options: RunOptions): Promise<LoopOutcome>;
  /** Compacts a session that is not running ("Compact now" between runs). */
  compact(sessionId: string, options: CompactOptions): Promise<CompactionResult>;
  close(): void;
}

export { DEFAULT_MAX_STEPS } from './agent/maxSteps';

export function createCore(options: CoreOptions): Core {
  const store = openStore(options.dataDir, options.backgroundCheckpoints === false ? { backgroundCheckpoints: false } : {});
  // No program Tether starts itself is ever found inside a folder an agent works in (programSearchPath.ts).
  for (const project of store.projects.list()) avoidInProgramSearchPath(project.path);
  // A project's servers run code from where the agent writes: they start inside the project's fence (projectServerFence.ts).
  const mcp = new McpHub(
    options.mcpTimings,
    projectServerFence((workspace, denyWrite) =>
      projectSandbox(options.dataDir, store, undefined, workspace, readManagedPolicy(), [], denyWrite),
    ),
  );
  const shadowRepos = new SessionShadowRepos(store, options.dataDir);
  const checkpoints = new Checkpoints(store, shadowRepos);
  // A session's /tmp goes with the session: deleted ones (by another host, or before this version
  // removed it on delete) and ones idle for SESSION_TEMP_DAYS, `tether run`'s included.
  const idleSince = Date.now() - SESSION_TEMP_DAYS * 24 * 60 * 60 * 1000;
  pruneSessionTemps(options.dataDir, (sessionId) => (store.sessions.get(sessionId)?.updatedAt ?? 0) > idleSince);
  // What crashed or killed Tether processes left in the sandbox; never what one running beside this one uses.
  pruneSandboxLeftovers(options.dataDir);

  return {
    store,
    mcp,
    shadowRepos,
    checkpoints,

    createSession({ workspace, task, model, maxSteps, id, project: projectFolder, setup }) {
      const root = canonicalWorkspace(workspace);
      avoidInProgramSearchPath(root);
      const project = store.projects.ensure(projectFolder ? canonicalWorkspace(projectFolder) : root);
      const session = store.sessions.create({
        ...(id ? { id } : {}),
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
      for (const event of setup ?? []) log.append(event);
      log.append({ type: 'user.messaged', text: task });
      return session.id;
    },

    async run(sessionId, run) {
      const log = new SessionLog(store, sessionId, run.onEvent);
      const { state } = log;
      if (state.status === 'new') throw new Error(`Session ${sessionId} has no events; it cannot be run.`);
      // Read for every run, before anything is written: a run the managed policy forbids never starts.
      const policy = readManagedPolicy();
      const refused = policyRefusal(policy, {
        unleashed: run.mode === 'unleashed',
        noSandbox: run.sandboxOffBy !== undefined,
        baseUrl: run.model.baseUrl,
      });
      if (refused) throw new Error(refused);
      if (run.resume) log.append({ type: 'session.resumed' });
      if (run.message) log.append({ type: 'user.messaged', text: run.message });
      if (run.sandboxOffBy) log.append({ type: 'sandbox.turned_off', by: run.sandboxOffBy });
      // The files as this run finds them (the session's base on its first run, the person's own edits
      // since on later ones), recorded while the rest is set up, and before any tool runs.
      const startCheckpoint = checkpoints.take(log, null);

      // The model is pinned on the session; only where to reach it may change between runs.
      const model: ModelConfig = { ...run.model, model: state.model, api: state.api };
      // A new session's model is asked whether it can call tools meanwhile too (the listing is a
      // round trip); the answer is awaited before any MCP server starts.
      const toolSupport = state.steps === 0 ? modelRefusal(model) : Promise.resolve(undefined);
      // Handled where it is awaited; a setup step that throws first must not leave it unhandled.
      toolSupport.catch(() => undefined);

      // Before anything reads .tether: a command killed with its process may have left the sandbox's placeholder there.
      removeFenceLeftovers(state.workspace);
      avoidInProgramSearchPath(state.workspace);
      // Read once for the run: permission defaults, the user's MCP servers, the model's budget.
      const settings = readAppSettings(options.dataDir);
      const defaults = permissionDefaults(settings);
      const sandbox = run.sandboxOffBy
        ? turnedOffSandbox({ workspace: state.workspace, dataDir: options.dataDir }, run.sandboxOffBy)
        : (run.sandbox ?? projectSandbox(options.dataDir, store, sessionId, state.workspace, policy, run.allowHosts));
      const permissions = await createSessionPermissions({
        commandsFenced: () => sandbox.off === undefined && sandbox.availability.available,
        fencedPlaces: () => sandbox.commandPlaces,
        store,
        dataDir: options.dataDir,
        workspace: state.workspace,
        sessionId,
        mode: run.mode ?? defaults.mode,
        outsideContent: outsideContentWithFloor(policy, run.outsideContent ?? defaults.outsideContent),
        ...(run.rulesFile ? { cliRulesFile: run.rulesFile } : {}),
      });
      const refusal = await toolSupport;
      if (refusal) {
        sandbox.dispose();
        await startCheckpoint;
        log.append({ type: 'session.finished', ...refusal });
        return refusal;
      }
      run.onPermissions?.(permissions.engine);
      // A settings file whose hooks cannot be read stops the run, as one whose rules cannot: a guard must not silently go missing.
      const hookEnv = commandEnvironment(withCommandSearchPath(process.env), settings.shellEnvironment).env;
      const hooks = new SessionHooks({
        hooks: sessionHookConfig(options.dataDir, state.workspace),
        sessionId,
        workspace: state.workspace,
        projectTrusted: permissions.projectTrusted,
        env: hookEnv,
        append: (event) => log.append(event),
        signal: run.signal,
        // Whether a sandbox is available is asked with the first hook, not at start: a run with no hook
        // and no command never probes for one. With none available, a hook runs as a command would:
        // unfenced, unless nothing may run outside the sandbox (the managed policy, or the person's
        // setting to refuse commands then); the wrap then fails and the hook is reported as not run.
        // With one, the hook runs outside it only when everything it runs comes from outside the
        // places the agent can write (hookPlacement.ts).
        ...(sandbox.off === undefined
          ? {
              place: async (hook: ConfiguredHook, cwd: string): Promise<HookRunPlan> => {
                if (!sandbox.availability.available && !sandbox.required && sandbox.unavailable !== 'refuse') return { where: 'outside' };
                if (sandbox.availability.available) {
                  await initShellParser();
                  const placed = hookPlacement(hook, {
                    workspace: state.workspace,
                    agentWritable: agentWritable(sandbox),
                    pathEnv: hookEnv.PATH ?? '',
                  });
                  if (placed.where === 'outside') return placed;
                }
                const wrapped = await sandbox.wrap(hook.command, cwd);
                return {
                  where: 'fenced',
                  ...watchingAutorunFiles(wrapped, {
                    workspace: state.workspace,
                    quarantine: sandbox.fence.quarantine,
                    command: hook.command,
                  }),
                };
              },
            }
          : {}),
      });
      // Servers start here, the first time a session needs the tool list; the list then stays fixed for the run.
      const mcpServers = sessionMcpServers({
        dataDir: options.dataDir,
        workspace: state.workspace,
        projectTrusted: permissions.projectTrusted,
        settings,
        ...(run.mcpServers ? { extra: run.mcpServers } : {}),
      });
      const mcpTools = await mcp.sessionTools(mcpServers, BUILTIN_TOOL_NAMES, run.sandboxOffBy);
      // Before the first model request: the log then always reads message, checkpoint, request.
      await startCheckpoint;
      const terminal = createPtyTerminal({
        ...(settings.shellEnvironment ? { environment: settings.shellEnvironment } : {}),
        limits: effectiveLimits(settings.commandLimits),
      });
      try {
        return await runLoop({
          log,
          sandbox,
          hooks,
          beforeToolCall: (call) =>
            mayChangeFiles(call.tool, { args: call.args, workspaceRoot: state.workspace })
              ? checkpoints.before(log, call.callId)
              : Promise.resolve(),
          fileAtSessionStart: (file) => checkpoints.fileAtStart(sessionId, file),
          afterToolCall: (call) =>
            call.hooked || mayChangeFiles(call.tool, { args: call.args, workspaceRoot: state.workspace })
              ? checkpoints.take(log, call.callId)
              : Promise.resolve(),
          tools: sessionTools(permissions.engine, mcpTools),
          provider: createProvider(model),
          instructions: systemPromptFor(log),
          budget: contextBudgetFor(state.model, settings),
          ...(run.takeCompactRequest ? { takeCompactRequest: run.takeCompactRequest } : {}),
          policy: run.policy ?? permissions.engine,
          grants: run.grants ? run.grants(permissions) : permissions,
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
        sandbox.dispose();
        // A run that ends by throwing may leave results recorded and not yet announced: they go out
        // before whoever catches the error appends the session's end.
        try {
          log.flush();
        } catch {
          // Their loss is the run's error, or follows from it; that is what the person is told.
        }
      }
    },

    async compact(sessionId, run) {
      const log = new SessionLog(store, sessionId, run.onEvent);
      if (log.state.status === 'new') throw new Error(`Session ${sessionId} has no events; there is nothing to compact.`);
      return compactConversation(
        {
          log,
          provider: createProvider({ ...run.model, model: log.state.model, api: log.state.api }),
          budget: contextBudgetFor(log.state.model, readAppSettings(options.dataDir)),
          instructions: systemPromptFor(log),
          // The built-in tools only: the count after compacting is an estimate, and MCP servers need not start for it.
          tools: new ToolRegistry(builtinTools()).specs(),
          signal: run.signal,
          ...(run.retry ? { retry: run.retry } : {}),
        },
        'manual',
      );
    },

    close() {
      // Signals every server process at once; hosts that can wait await mcp.close() first.
      void mcp.close();
      store.close();
    },
  };
}

/**
 * The tools a session has. fetch_url consults the session's rules for the two things it decides
 * mid-call: whether a private address may be reached, and whether a redirect to another host is followed.
 */
function sessionTools(engine: PermissionEngine, mcpTools: readonly AnyTool[] = []): ToolRegistry {
  const allowedWithoutAsking = (url: string) =>
    engine.evaluate({ sessionId: '', callId: '', tool: fetchUrl as AnyTool, args: { url } }).action === 'allow';
  const fetchTool = createFetchUrl({
    allowPrivateHosts: (host) => hasDomainAllowRule(engine, host),
    followRedirect: (_from, to) => allowedWithoutAsking(to.href),
  });
  return new ToolRegistry([...builtinTools(fetchTool as AnyTool), ...mcpTools]);
}

/** A private address is reached only when a rule names its host outright: `fetch_url(domain:localhost)`. */
function hasDomainAllowRule(engine: PermissionEngine, host: string): boolean {
  return engine.rules().some((rule) => {
    if (rule.action !== 'allow') return false;
    const { target } = parseRule(rule.pattern);
    return target.kind === 'domain' && target.pattern !== undefined && matchDomain(target.pattern, host);
  });
}

/** The session's sandbox: the fence the person set for its project (a worktree session shares its project's). */
/** Why a new session cannot run with `model` (its server says it cannot call tools), as the run's outcome; undefined to go on. */
async function modelRefusal(model: ModelConfig): Promise<LoopOutcome | undefined> {
  try {
    await checkToolSupport(model);
    return undefined;
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    return { status: 'failed', reason: error.message, modelFailure: modelFailureOf(error) };
  }
}

/** The fence of the project in `workspace`: a session's (its commands, hooks and /tmp), or, with no session, a project MCP server's. */
function projectSandbox(
  dataDir: string,
  store: Store,
  sessionId: string | undefined,
  workspace: string,
  policy?: ManagedPolicy,
  runHosts?: readonly string[],
  denyWrite: readonly string[] = [],
): CommandSandbox {
  const settings = readSandboxSettings(dataDir);
  const projectId = sessionId ? store.sessions.get(sessionId)?.projectId : store.projects.byPath(workspace)?.id;
  const projectPath = (projectId ? store.projects.get(projectId)?.path : undefined) ?? workspace;
  return createCommandSandbox({
    workspace,
    dataDir,
    projectPath,
    ...(sessionId ? { sessionId } : {}),
    custom: withDenyWrite(projectFence(settings, projectPath), denyWrite),
    unavailable: settings.unavailable,
    ...(runHosts && runHosts.length > 0 ? { runHosts } : {}),
    ...(policy?.requireSandbox ? { required: `the managed policy ${policy.file} requires it (requireSandbox)` } : {}),
  });
}

function withDenyWrite(fence: SandboxFence, denyWrite: readonly string[]): SandboxFence {
  return denyWrite.length === 0 ? fence : { ...fence, denyWrite: [...fence.denyWrite, ...denyWrite] };
}

function canonicalWorkspace(path: string): string {
  const folder = realFolder(path);
  if ('path' in folder) return folder.path;
  throw new Error(folder.problem === 'missing' ? `The workspace folder ${path} does not exist.` : `The workspace ${path} is not a folder.`);
}

function titleFrom(task: string): string {
  const line = task.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
