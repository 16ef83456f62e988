import type { LiveEvent, StoredEvent } from '../../src/shared/events';
import type { Core } from '../../src/main/core';
import type { ModelConfig } from '../../src/main/model/config';
import type { ModelApi } from '../../src/main/model/provider';
import { HeadlessBroker, type Broker } from '../../src/main/permissions/broker';
import type { CommandSandbox } from '../../src/main/sandbox/commandSandbox';
import { startScriptedModel, type ScriptedModel, type Turn } from '../fixtures/scriptedModel';

/** Retries in milliseconds, so a test of a failing server does not wait for real backoff. */
export const fastRetry = { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 3 };

export interface ScriptedRunOptions {
  api?: ModelApi;
  /** Headless, as `tether run`: without it every permission request is denied. Default true. */
  unleashed?: boolean;
  /** Who answers the questions; the headless broker (unleashed unless said otherwise) when absent. */
  broker?: Broker;
  maxSteps?: number;
  task?: string;
  signal?: AbortSignal;
  onEvent?(stored: StoredEvent): void;
  /** The commands' sandbox; the session's own (from its settings) when absent. */
  sandbox?: CommandSandbox;
  onLive?(event: LiveEvent): void;
}

const started: ScriptedModel[] = [];

/**
 * Starts the scripted model with `turns`, runs one new session of `core` on `workspace` through the
 * real loop until it stops, and returns its log. `closeScriptedModels` (in afterEach) stops the servers.
 */
export async function runScripted(core: Core, workspace: string, turns: Turn[], options: ScriptedRunOptions = {}) {
  const server = await startScriptedModel({ turns });
  started.push(server);
  const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'test-key', model: 'scripted-model', api: options.api ?? 'responses' };
  const sessionId = core.createSession({ workspace, task: options.task ?? 'do the task', model, maxSteps: options.maxSteps ?? 50 });
  const outcome = await core.run(sessionId, {
    model,
    broker: options.broker ?? new HeadlessBroker({ unleashed: options.unleashed ?? true }),
    signal: options.signal ?? new AbortController().signal,
    retry: fastRetry,
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ...(options.onLive ? { onLive: options.onLive } : {}),
  });
  const events = core.store.events.list(sessionId);
  return { sessionId, outcome, events, types: events.map((stored) => stored.event.type), server };
}

export async function closeScriptedModels(): Promise<void> {
  await Promise.all(started.splice(0).map((server) => server.close()));
}
