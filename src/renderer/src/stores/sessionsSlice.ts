import type { ProjectView, SessionSummary, StartMode } from '../../../shared/contract';
import type { PermissionMode } from '../../../shared/permissions';
import { itemCount } from '../../../shared/conversationState';
import type { GetState, SetState, StoreDeps } from './appState';
import { errorMessage } from '../lib/errorMessage';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** Projects and the sidebar's session rows, as the core reports them. */
export interface SessionsSlice {
  projects: ProjectView[];
  projectsStatus: LoadStatus;
  sessions: Record<string, SessionSummary>;
  sessionsStatus: LoadStatus;
  /** Messages sent while the agent works, shown as queued until the log records them. */
  queued: Record<string, string[]>;
  loadProjects(): Promise<void>;
  loadSessions(): Promise<void>;
  openProject(path: string): Promise<ProjectView | undefined>;
  trustProject(projectId: string, trusted: boolean): Promise<void>;
  /** The mode the project's new sessions start in (the first-open question, Settings); returns whether it was kept. */
  setProjectDefaultMode(projectId: string, mode: StartMode): Promise<boolean>;
  /** Starts a session on `workspace` and selects it; returns its id, or undefined (a toast says why). */
  startSession(workspace: string, task: string, mode?: Exclude<PermissionMode, 'unleashed'>): Promise<string | undefined>;
  renameSession(sessionId: string, title: string): Promise<boolean>;
  deleteSession(sessionId: string): Promise<boolean>;
  setSessionMode(sessionId: string, mode: PermissionMode): Promise<void>;
  /** "Compact now": at once when the session is not working, at its next turn when it is. */
  compactSession(sessionId: string): Promise<void>;
  /** Sends a message; the core queues it for the agent's next turn. Returns whether it was accepted. */
  sendMessage(sessionId: string, text: string): Promise<boolean>;
  stopSession(sessionId: string): Promise<void>;
  /** The failure notice's Retry: runs the stopped session again with no new message. */
  retrySession(sessionId: string): Promise<void>;
  /** A `sessions:changed` event. */
  sessionChanged(summary: SessionSummary): void;
  /** A `sessions:deleted` event, or our own delete succeeding. */
  sessionDeleted(sessionId: string): void;
}

export function createSessionsSlice(deps: StoreDeps, set: SetState, get: GetState): SessionsSlice {
  const { api } = deps;
  return {
    projects: [],
    projectsStatus: 'idle',
    sessions: {},
    sessionsStatus: 'idle',
    queued: {},

    async loadProjects() {
      set({ projectsStatus: get().projectsStatus === 'ready' ? 'ready' : 'loading' });
      try {
        const projects = await api.request('projects:list', {});
        set({ projects, projectsStatus: 'ready' });
      } catch (error) {
        set({ projectsStatus: 'error' });
        get().notify(`Could not list the projects: ${errorMessage(error)}`);
      }
    },

    async loadSessions() {
      set({ sessionsStatus: get().sessionsStatus === 'ready' ? 'ready' : 'loading' });
      try {
        const list = await api.request('sessions:list', {});
        const sessions: Record<string, SessionSummary> = {};
        for (const summary of list) sessions[summary.id] = summary;
        set({ sessions, sessionsStatus: 'ready' });
      } catch (error) {
        set({ sessionsStatus: 'error' });
        get().notify(`Could not list the sessions: ${errorMessage(error)}`);
      }
    },

    async openProject(path) {
      try {
        const project = await api.request('projects:open', { path });
        set((state) => ({ projects: upsertProject(state.projects, project) }));
        get().startDraft(project.id);
        return project;
      } catch (error) {
        get().notify(`Could not open ${path}: ${errorMessage(error)}`);
        return undefined;
      }
    },

    async trustProject(projectId, trusted) {
      try {
        const project = await api.request('projects:trust', { projectId, trusted });
        set((state) => ({ projects: upsertProject(state.projects, project) }));
      } catch (error) {
        get().notify(`Could not change trust for the project: ${errorMessage(error)}`);
      }
    },

    async setProjectDefaultMode(projectId, mode) {
      try {
        const project = await api.request('projects:setDefaultMode', { projectId, mode });
        set((state) => ({ projects: upsertProject(state.projects, project) }));
        return true;
      } catch (error) {
        get().notify(`Could not keep the project's default mode: ${errorMessage(error)}`);
        return false;
      }
    },

    async startSession(workspace, task, mode) {
      try {
        const { sessionId } = await api.request('session:start', mode ? { workspace, task, mode } : { workspace, task });
        get().selectSession(sessionId);
        // A new folder becomes a project on start; the sidebar needs both rows.
        if (!get().projects.some((project) => project.path === workspace)) void get().loadProjects();
        if (!get().sessions[sessionId]) void get().loadSessions();
        return sessionId;
      } catch (error) {
        get().notify(`Could not start the session: ${errorMessage(error)}`);
        return undefined;
      }
    },

    async renameSession(sessionId, title) {
      try {
        const summary = await api.request('session:rename', { sessionId, title });
        get().sessionChanged(summary);
        return true;
      } catch (error) {
        get().notify(`Could not rename the session: ${errorMessage(error)}`);
        return false;
      }
    },

    async deleteSession(sessionId) {
      try {
        await api.request('session:delete', { sessionId });
        get().sessionDeleted(sessionId);
        return true;
      } catch (error) {
        get().notify(`Could not delete the session: ${errorMessage(error)}`);
        return false;
      }
    },

    async setSessionMode(sessionId, mode) {
      try {
        const summary = await api.request('session:setMode', { sessionId, mode });
        get().sessionChanged(summary);
      } catch (error) {
        get().notify(`Could not change the permission mode: ${errorMessage(error)}`);
      }
    },

    async compactSession(sessionId) {
      try {
        const { when } = await api.request('session:compact', { sessionId });
        if (when === 'next_turn') get().notify('The conversation will be compacted before the agent’s next request.', 'info');
      } catch (error) {
        get().notify(`Could not compact the conversation: ${errorMessage(error)}`);
      }
    },

    async sendMessage(sessionId, text) {
      const held = get().logs[sessionId]?.state;
      const before = held ? itemCount(held) : 0;
      try {
        await api.request('session:send', { sessionId, text });
        // The log may already hold it (the core appends at once when idle): only queue what it lacks.
        const after = get().logs[sessionId]?.state;
        const added = after ? after.items.slice(Math.max(0, before - after.itemsFrom)) : [];
        if (!added.some((item) => item.type === 'user' && item.text.trim() === text.trim())) {
          set((state) => ({ queued: { ...state.queued, [sessionId]: [...(state.queued[sessionId] ?? []), text.trim()] } }));
        }
        return true;
      } catch (error) {
        get().notify(`Could not send the message: ${errorMessage(error)}`);
        return false;
      }
    },

    async stopSession(sessionId) {
      try {
        await api.request('session:stop', { sessionId });
      } catch (error) {
        get().notify(`Could not stop the session: ${errorMessage(error)}`);
      }
    },

    async retrySession(sessionId) {
      try {
        await api.request('session:retry', { sessionId });
      } catch (error) {
        get().notify(`Could not retry: ${errorMessage(error)}`);
      }
    },

    sessionChanged(summary) {
      set((state) => ({ sessions: { ...state.sessions, [summary.id]: summary } }));
      const state = get();
      const listed = state.inbox.filter((entry) => entry.sessionId === summary.id).length;
      if (listed !== summary.pendingApprovals && !state.logs[summary.id]?.loaded) void state.refreshInbox();
      // Titles shown in the inbox follow renames.
      if (listed > 0) {
        set((current) => ({
          inbox: current.inbox.map((entry) =>
            entry.sessionId === summary.id && entry.sessionTitle !== summary.title ? { ...entry, sessionTitle: summary.title } : entry,
          ),
        }));
      }
    },

    sessionDeleted(sessionId) {
      set((state) => ({
        sessions: without(state.sessions, sessionId),
        logs: without(state.logs, sessionId),
        liveText: without(state.liveText, sessionId),
        liveReasoning: without(state.liveReasoning, sessionId),
        terminals: without(state.terminals, sessionId),
        queued: without(state.queued, sessionId),
        taskDrafts: without(state.taskDrafts, sessionId),
        diffs: without(state.diffs, sessionId),
        diffPath: without(state.diffPath, sessionId),
        fileDiff: state.fileDiff?.sessionId === sessionId ? null : state.fileDiff,
        inbox: state.inbox.filter((entry) => entry.sessionId !== sessionId),
        selectedSessionId: state.selectedSessionId === sessionId ? null : state.selectedSessionId,
      }));
    },
  };
}

function upsertProject(projects: ProjectView[], project: ProjectView): ProjectView[] {
  const index = projects.findIndex((other) => other.id === project.id);
  if (index === -1) return [...projects, project];
  const next = projects.slice();
  next[index] = project;
  return next;
}

export function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const { [key]: _dropped, ...rest } = record;
  return rest;
}
