import fs from 'node:fs';
import {
  EVENTS_PAGE_CHARS,
  EVENTS_PAGE_MAX,
  type EventName,
  type EventPayload,
  type Handlers,
  type ProjectView,
  type RuleView,
  type SettingsView,
} from '../../shared/contract';
import { commandsRanUnaskedAfter, type ToolCallView } from '../../shared/session';
import { PAGE_ITEMS_MAX } from '../../shared/sessionWindow';
import type { SessionEvent, StoredEvent } from '../../shared/events';
import { createCore, DEFAULT_MAX_STEPS } from '../core';
import type { AppServices, CreateAppServices, EmitEvent } from './appServices';
import { DEFAULT_BASE_URL, DEFAULT_MODEL, resolveModelConfig, type ModelConfig } from '../model/config';
import { RequestError } from '../../shared/requestError';
import { TETHER_VERSION } from '../../shared/version';
import { createMcpHandlers } from './mcpHandlers';
import { createSandboxHandlers } from './sandboxHandlers';
import { checkSandboxAvailability } from '../sandbox/availability';
import { removeSessionTemp, sessionTempDir } from '../sandbox/sessionTemp';
import { memoryKeyStore, type KeyStore } from './model/keyStore';
import { createModelSetupHandlers, keyVariablesSet, originOf } from './model/modelSetupHandlers';
import { localPortsFromEnv } from '../model/localServers';
import { SessionWorktrees } from './sessions/sessionWorktrees';
import { SessionDiffs } from './sessions/sessionDiffs';
import { moveToWorktree } from './sessions/sessionMove';
import { SessionRewinder } from './sessions/sessionRewinder';
import { SessionFolds } from './sessions/sessionFolds';
import { SessionManager } from './sessions/sessionManager';
import { completeFolders } from './files/folderCompletion';
import { WorkspaceFiles } from './files/workspaceFiles';
import { viewWorkspaceFile } from './files/workspaceFileView';
import { readAppSettings, settingsFile, writeAppSettings } from '../settings/appSettings';
import { addSettingsRule, removeSettingsRule, settingsRuleLists, SettingsRuleError } from '../permissions/settingsRuleEdits';
import { SettingsError } from '../settings/settingsFile';
import { atLeast, managedPolicyView, settingsChangeRefusal } from '../settings/managedPolicy';
import { readPaneLayout, writePaneLayout } from '../settings/paneLayout';
import { auditRows } from '../store/auditRows';
import type { ProjectRow } from '../store/projects';
import type { RuleRow } from '../store/storedRules';
import { realFolder } from '../workspace/filePaths';
import { startAutoUpdates } from './updates/autoUpdates';
import { createDeskServices } from './desk/deskServices';
import { guardRemoteSessions } from './desk/remoteSessionGuard';

/**
 * The composition for a UI host: the core, the sessions it runs, and one handler per request of the
 * contract. Electron and `tether serve` both call this; they differ only in where the key is kept.
 */
export const createAppServices: CreateAppServices = (options) => createServices(options);

export function createServices(options: Parameters<CreateAppServices>[0] & { keyStore?: KeyStore }): AppServices {
  const { dataDir } = options;
  const core = createCore({ dataDir });
  // Only a key typed into the UI: the environment's is read in modelConfig, for the API the settings
  // name (ANTHROPIC_API_KEY for Anthropic, OPENAI_API_KEY otherwise).
  const keyStore = options.keyStore ?? memoryKeyStore(undefined);
  const listeners = new Set<EmitEvent>();
  const emit = <E extends EventName>(name: E, payload: EventPayload<E>) => {
    for (const listener of listeners) listener(name, payload);
  };

  const settings = () => readAppSettings(dataDir);
  // A key typed into the app goes only to the origin it was saved for (settings' keyOrigin; absent in
  // settings written before it was recorded, when it goes wherever the settings point, as it did then).
  const storedKey = (baseUrl: string): { key: string; usable: boolean; origin?: string } | undefined => {
    const key = keyStore.get();
    if (key === undefined) return undefined;
    const origin = settings().model?.keyOrigin;
    return { key, usable: origin === undefined || origin === originOf(baseUrl), ...(origin !== undefined ? { origin } : {}) };
  };
  const modelConfig = (): ModelConfig => {
    const { keyOrigin: _keyOrigin, ...stored } = settings().model ?? {};
    const fromEnv = resolveModelConfig(stored);
    const typed = storedKey(fromEnv.baseUrl);
    return { ...fromEnv, apiKey: typed?.usable ? typed.key : fromEnv.apiKey };
  };
  // Reverts, accepts and worktree endings happen outside a run: logged here, and pushed like a run's events.
  const record = (sessionId: string, event: SessionEvent): StoredEvent => {
    const stored = core.store.events.append(sessionId, event);
    emit('session:event', stored);
    emit('sessions:changed', sessions.summary(sessionId));
    return stored;
  };
  const diffs = new SessionDiffs(core.store, core.shadowRepos, { record });
  const worktrees = new SessionWorktrees({ store: core.store, dataDir, record });
  const sessions: SessionManager = new SessionManager({
    core,
    beforeFirstRun: (sessionId) => diffs.takeBase(sessionId),
    modelConfig,
    maxSteps: () => settings().maxSteps ?? DEFAULT_MAX_STEPS,
    defaultMode: () => settings().mode ?? 'ask',
    // A UI host's runs use this process's sandbox (never turned off): where there is none, auto works as ask.
    sandboxMissing: () => {
      const availability = checkSandboxAvailability();
      return availability.available ? undefined : availability.reason;
    },
    emit,
    remoteRun: (sessionId) => remote.desk.info(sessionId),
  });
  // Remote runs report here when this desk accepts them (Settings → Remote runs, tether serve --remote-runs).
  const remote = createDeskServices({
    store: core.store,
    dataDir,
    emit,
    summary: (sessionId) => sessions.summary(sessionId),
    ...(options.remoteRuns ? { acceptRuns: options.remoteRuns } : {}),
  });
  if (options.cwd) core.store.projects.ensure(canonicalFolder(options.cwd));
  sessions.resumeWaiting();
  const rewinder = new SessionRewinder(core.store, core.checkpoints);
  const workspaceFiles = new WorkspaceFiles();
  const folds = new SessionFolds(core.store.events);
  const pushed = (sessionId: string) => (stored: StoredEvent) => {
    emit('session:event', stored);
    emit('sessions:changed', sessions.summary(sessionId));
  };

  const mcp = createMcpHandlers({ core, dataDir, emit });
  const updates = options.updater
    ? startAutoUpdates({
        updater: options.updater,
        sessionStatuses: () => sessions.list().map((session) => session.status),
        announce: (view) => emit('app:updateChanged', view),
        log: (message) => console.error(message),
      })
    : undefined;

  const settingsView = (): SettingsView => {
    const current = settings();
    const model = modelConfig();
    const typed = storedKey(model.baseUrl);
    const policy = managedPolicyView();
    return {
      baseUrl: current.model?.baseUrl ?? model.baseUrl ?? DEFAULT_BASE_URL,
      api: model.api,
      model: current.model?.model ?? model.model ?? DEFAULT_MODEL,
      hasApiKey: Boolean(model.apiKey),
      maxSteps: current.maxSteps ?? DEFAULT_MAX_STEPS,
      mode: current.mode ?? 'ask',
      // What applies: the person's choice, raised to the managed policy's floor.
      outsideContent: atLeast(current.outsideContent ?? 'ask', policy?.outsideContentFloor),
      modelConfigured: Boolean(current.model?.baseUrl || process.env.TETHER_BASE_URL?.trim() || model.apiKey),
      keyVariables: keyVariablesSet(),
      keyKept: keyStore.persistence,
      ...(typed && !typed.usable && typed.origin ? { storedKeyFor: typed.origin } : {}),
      ...(policy ? { managedPolicy: policy } : {}),
    };
  };

  const handlers: Handlers = {
    'app:info': async () => ({ version: TETHER_VERSION, host: options.host, dataDir }),
    'layout:get': async () => readPaneLayout(dataDir),
    'layout:save': async (layout) => writePaneLayout(dataDir, layout),
    'app:update': async () => updates?.view() ?? { state: 'unavailable' },
    'app:restartToUpdate': async () =>
      updates?.restart() ?? { restarted: false, reason: 'This copy of Tether does not update itself: only the packaged desktop app does.' },
    'projects:list': async () => core.store.projects.list().map(projectView),
    'projects:open': async ({ path: folder }) => projectView(core.store.projects.ensure(canonicalFolder(folder))),
    'projects:trust': async ({ projectId, trusted }) => {
      if (!core.store.projects.get(projectId)) throw new RequestError('not_found', `There is no project ${projectId}.`);
      const project = projectView(core.store.projects.setTrusted(projectId, trusted));
      await mcp.trustChanged(projectId, trusted);
      return project;
    },
    'projects:setDefaultMode': async ({ projectId, mode }) => {
      if (!core.store.projects.get(projectId)) throw new RequestError('not_found', `There is no project ${projectId}.`);
      return projectView(core.store.projects.setDefaultMode(projectId, mode));
    },
    'sessions:list': async ({ projectId }) => sessions.list(projectId),
    'session:start': async ({ workspace, task, mode }) => {
      const folder = canonicalFolder(workspace);
      const place = await worktrees.prepare(folder);
      // The mode asked for, else the project's own default (the person's answer when it was first opened), else the settings'.
      const startMode = mode ?? core.store.projects.byPath(folder)?.defaultMode ?? undefined;
      return {
        sessionId: sessions.start({ workspace: folder, task, ...(startMode ? { mode: startMode } : {}), ...(place ? { place } : {}) }),
      };
    },
    'session:open': async ({ sessionId }) => {
      sessions.summary(sessionId);
      return folds.snapshot(sessionId);
    },
    'session:page': async ({ sessionId, beforeItem, limit }) => {
      sessions.summary(sessionId);
      return folds.page(sessionId, beforeItem, limit ?? PAGE_ITEMS_MAX);
    },
    'session:events': async ({ sessionId, afterSeq }) => {
      sessions.summary(sessionId);
      return core.store.events.page(sessionId, afterSeq, { maxEvents: EVENTS_PAGE_MAX, maxChars: EVENTS_PAGE_CHARS }).events;
    },
    'session:send': async ({ sessionId, text }) => sessions.send(sessionId, text),
    'session:stop': async ({ sessionId }) => sessions.stop(sessionId),
    'session:retry': async ({ sessionId }) => sessions.retry(sessionId),
    'session:rename': async ({ sessionId, title }) => {
      sessions.summary(sessionId);
      core.store.sessions.rename(sessionId, title);
      const summary = sessions.summary(sessionId);
      emit('sessions:changed', summary);
      return summary;
    },
    'session:delete': async ({ sessionId }) => {
      worktrees.refuseWhileOpen(sessionId);
      sessions.delete(sessionId);
      folds.forget(sessionId);
      // Its private /tmp goes with it.
      removeSessionTemp(options.dataDir, sessionId);
    },
    'session:sandboxTemp': async ({ sessionId }) => {
      sessions.summary(sessionId);
      const folder = sessionTempDir(options.dataDir, sessionId);
      return { path: folder, exists: fs.existsSync(folder), sandboxed: checkSandboxAvailability().available };
    },
    // Only the desktop app opens a folder in the system's file manager (index.ts replaces this).
    'session:openSandboxTemp': async ({ sessionId }) => {
      sessions.summary(sessionId);
      return { opened: false };
    },
    'session:setMode': async ({ sessionId, mode }) => sessions.setMode(sessionId, mode),
    'session:compact': async ({ sessionId }) => sessions.compact(sessionId),
    'approval:answer': async (answer) => {
      const stored = core.store.approvals.get(answer.approvalId);
      if (!stored) throw new RequestError('not_found', 'There is no such permission request.');
      if (stored.decision) throw new RequestError('conflict', 'This permission request was already answered.');
      if (stored.expiredAt) throw new RequestError('not_found', 'This permission request is no longer waiting: its session stopped.');
      sessions.answer(answer, stored.sessionId);
    },
    'approval:preview': async (request) => sessions.previewAnswer(request),
    'approvals:pending': async () =>
      core.store.approvals.pending().map((row) => ({
        approvalId: row.id,
        sessionId: row.sessionId,
        sessionTitle: core.store.sessions.get(row.sessionId)?.title ?? '',
        askedAt: row.askedAt,
      })),
    'diff:files': async ({ sessionId, scope, fresh }) => diffs.files(sessionId, scope, fresh === true),
    'diff:file': async ({ sessionId, path: filePath, scope }) => diffs.file(sessionId, filePath, scope),
    // Refused while the agent runs, and a run asked for meanwhile waits: the agent never edits what is being reverted or merged.
    'diff:revert': async ({ sessionId, path: filePath, scope, hunk }) =>
      sessions.whileStopped(sessionId, `revert ${filePath}`, () =>
        diffs.revert(sessionId, { path: filePath, ...(scope ? { scope } : {}), ...(hunk ? { hunk } : {}) }),
      ),
    'diff:undoRevert': async ({ sessionId, undoId }) =>
      sessions.whileStopped(sessionId, 'undo the revert', async () => diffs.undoRevert(sessionId, undoId)),
    'workspace:files': async ({ sessionId, projectId, query, limit }) => {
      const workspace = sessionId !== undefined ? sessions.summary(sessionId).workspace : core.store.projects.get(projectId!)?.path;
      if (!workspace) throw new RequestError('not_found', `There is no project ${projectId}.`);
      return workspaceFiles.complete(workspace, query, limit);
    },
    'workspace:readFile': async ({ sessionId, path: filePath, confirmed }) =>
      viewWorkspaceFile({
        workspace: sessions.summary(sessionId).workspace,
        path: filePath,
        confirmed: confirmed === true,
        rules: { dataDir, store: core.store, sessionId },
      }),
    'folders:complete': async ({ typed }) => completeFolders(typed),
    'folders:pick': async () => {
      throw new RequestError('invalid_input', 'A folder picker needs the desktop app; under tether serve, type the folder’s path.');
    },
    'diff:accept': async ({ sessionId, scope, path: filePath }) => {
      sessions.summary(sessionId);
      return diffs.accept(sessionId, scope, filePath);
    },
    'diff:undoAccept': async ({ sessionId, acceptSeq }) => {
      sessions.summary(sessionId);
      return diffs.undoAccept(sessionId, acceptSeq);
    },
    'worktree:setting': async ({ projectId }) => worktrees.setting(projectId),
    'worktree:configure': async ({ projectId, enabled }) => worktrees.configure(projectId, enabled),
    'worktree:finish': async ({ sessionId, action, message }) =>
      sessions.whileStopped(sessionId, `${action} the worktree`, () => worktrees.finish(sessionId, action, message)),
    'worktree:move': async ({ sessionId }) =>
      sessions.whileStopped(sessionId, 'move to a worktree', () =>
        moveToWorktree({ store: core.store, diffs, worktrees, shadowRepos: core.shadowRepos, record }, sessionId),
      ),
    'settings:get': async () => settingsView(),
    'settings:update': async (update) => {
      const { apiKey, baseUrl, api, model, ...rest } = update;
      const refused = settingsChangeRefusal({
        ...(baseUrl !== undefined ? { baseUrl } : {}),
        ...(rest.outsideContent ? { outsideContent: rest.outsideContent } : {}),
      });
      if (refused) throw new RequestError('invalid_input', refused);
      const current = settings();
      const { keyOrigin, ...where } = {
        ...current.model,
        ...(baseUrl !== undefined ? { baseUrl } : {}),
        ...(api ? { api } : {}),
        ...(model ? { model } : {}),
      };
      // A new key belongs to the address it was typed with; forgetting the key forgets that too.
      const nextKeyOrigin =
        typeof apiKey === 'string' ? originOf(resolveModelConfig(where).baseUrl) : apiKey === null ? undefined : keyOrigin;
      writeAppSettings(dataDir, {
        ...current,
        ...rest,
        model: { ...where, ...(nextKeyOrigin !== undefined ? { keyOrigin: nextKeyOrigin } : {}) },
      });
      if (apiKey !== undefined) keyStore.set(apiKey);
      return settingsView();
    },
    'rules:list': async ({ projectId }) => core.store.rules.list(projectId ? { projectId } : {}).map(ruleView),
    'rules:revoke': async ({ ruleId }) => {
      if (!core.store.rules.get(ruleId)) throw new RequestError('not_found', `There is no rule ${ruleId}.`);
      core.store.rules.revoke(ruleId);
    },
    'settingsRules:list': async () => ({ file: settingsFile(dataDir), ...settingsRuleLists(dataDir) }),
    'settingsRules:add': async ({ action, rule }) => {
      const lists = refusedAsInput(() => addSettingsRule(dataDir, action, rule));
      sessions.applySettingsRule('add', { pattern: rule.trim(), action });
      return { file: settingsFile(dataDir), ...lists };
    },
    'settingsRules:remove': async ({ action, rule }) => {
      const lists = refusedAsInput(() => removeSettingsRule(dataDir, action, rule));
      sessions.applySettingsRule('remove', { pattern: rule, action });
      return { file: settingsFile(dataDir), ...lists };
    },
    // Only the desktop app shows the OS's own notifications (index.ts replaces this); the page shows its own.
    'notification:show': async () => ({ shown: false }),
    'audit:list': async (filter) => {
      const rows = auditRows(core.store, filter);
      if (!rows) throw new RequestError('not_found', `There is no session ${filter.sessionId}.`);
      return rows;
    },
    'session:rewindPreview': async ({ sessionId, toSeq }) => {
      sessions.summary(sessionId);
      const unasked = commandsRanUnaskedAfter(folds.state(sessionId), toSeq).map((call) => ({
        callId: call.callId,
        command: commandOf(call),
      }));
      return { ...(await rewinder.preview(sessionId, toSeq)), working: sessions.isRunning(sessionId), unasked };
    },
    'session:rewind': async ({ sessionId, toSeq, restore }) =>
      sessions.whileStopped(sessionId, 'rewind', () => rewinder.rewind(sessionId, toSeq, restore, pushed(sessionId))),
    'session:undoRewind': async ({ sessionId }) =>
      sessions.whileStopped(sessionId, 'undo the rewind', () => rewinder.undo(sessionId, pushed(sessionId))),
    ...mcp.handlers,
    ...createModelSetupHandlers({ savedModel: modelConfig, localPorts: localPortsFromEnv() }),
    ...createSandboxHandlers({ dataDir, store: core.store }),
    ...remote.handlers,
  };

  return {
    handlers: guardRemoteSessions(handlers, { desk: remote.desk, store: core.store }),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      updates?.stop();
      await remote.close();
      await sessions.close();
      mcp.dispose();
      await core.mcp.close();
      core.close();
    },
  };
}

/** A run_command call's command line as the model wrote it (its title when the arguments do not parse). */
/** A rule the person typed that cannot go in, or a settings file that cannot be changed: a refusal of the input, with why. */
function refusedAsInput<T>(change: () => T): T {
  try {
    return change();
  } catch (error) {
    if (error instanceof SettingsRuleError || error instanceof SettingsError) throw new RequestError('invalid_input', error.message);
    throw error;
  }
}

function commandOf(call: ToolCallView): string {
  try {
    const args: unknown = JSON.parse(call.arguments);
    const command = typeof args === 'object' && args !== null ? (args as { command?: unknown }).command : undefined;
    if (typeof command === 'string') return command;
  } catch {
    // The title says what ran.
  }
  return call.title ?? call.name;
}

function projectView(row: ProjectRow): ProjectView {
  return { id: row.id, path: row.path, name: row.name, trusted: row.trusted, defaultMode: row.defaultMode };
}

function ruleView(row: RuleRow): RuleView {
  return {
    id: row.id,
    pattern: row.pattern,
    action: row.action,
    scope: row.scope,
    projectId: row.projectId,
    sessionId: row.sessionId,
    createdAt: row.createdAt,
  };
}

function canonicalFolder(folder: string): string {
  const found = realFolder(folder);
  if ('path' in found) return found.path;
  throw found.problem === 'missing'
    ? new RequestError('not_found', `The folder ${folder} does not exist.`)
    : new RequestError('invalid_input', `${folder} is a file, not a folder.`);
}
