import path from 'node:path';
import { z } from 'zod';
import type { Handlers, SessionSummary } from '../../../shared/contract';
import { DEFAULT_DESK_PORT } from '../../../shared/deskProtocol';
import { DeskListen, type RemoteRunsView } from '../../../shared/remoteRuns';
import { RequestError } from '../../../shared/requestError';
import { readJsonFile, writeJsonFile } from '../../settings/jsonFile';
import { SettingsError } from '../../settings/settingsFile';
import type { Store } from '../../store/store';
import { StoreError } from '../../store/storeError';
import type { EmitEvent } from '../appServices';
import { Desk } from './desk';
import { deskCertificate } from './deskCertificate';
import { isLoopback, startDeskListener, type DeskListener } from './deskListener';
import { checkRunnerToken, makeRunnerToken } from './runnerTokens';

/**
 * Settings → Remote runs: whether this desk accepts runs and where it listens (kept in
 * `<dataDir>/desk.json`, off by default), the listener that follows them, and the runners' tokens
 * and rules. `tether serve --remote-runs` turns it on for that process whatever the file says.
 */

const DeskSettings = z.object({ enabled: z.boolean().optional(), listen: DeskListen.optional() });
type DeskSettings = z.infer<typeof DeskSettings>;

export const DEFAULT_DESK_LISTEN: DeskListen = { host: '127.0.0.1', port: DEFAULT_DESK_PORT };

type DeskHandlers = Pick<Handlers, 'remote:get' | 'remote:configure' | 'remote:createToken' | 'remote:revokeToken' | 'remote:revokeRule'>;

export interface DeskServices {
  desk: Desk;
  handlers: DeskHandlers;
  close(): Promise<void>;
}

export interface DeskServicesOptions {
  store: Store;
  dataDir: string;
  emit: EmitEvent;
  summary(sessionId: string): SessionSummary;
  /** Accept runs in this process (`tether serve --remote-runs`), where given. */
  acceptRuns?: { listen?: DeskListen; tls?: boolean };
}

export function createDeskServices(options: DeskServicesOptions): DeskServices {
  const { store, dataDir } = options;
  const file = path.join(dataDir, 'desk.json');
  const read = (): DeskSettings =>
    readJsonFile(file, DeskSettings, { whenMissing: () => ({}), fail: (problem) => new SettingsError(file, problem) });
  const desk = new Desk({ store, emit: options.emit, summary: options.summary });

  const saved = read();
  let enabled = options.acceptRuns !== undefined || saved.enabled === true;
  let listen = options.acceptRuns?.listen ?? saved.listen ?? DEFAULT_DESK_LISTEN;
  let listener: DeskListener | undefined;
  let fingerprint: string | undefined;
  let problem: string | undefined;
  // One change of the listener at a time; a view waits for the one under way.
  let settling: Promise<void> = apply();

  async function apply(): Promise<void> {
    const previous = listener;
    listener = undefined;
    fingerprint = undefined;
    problem = undefined;
    await previous?.close();
    if (!enabled) return;
    try {
      const withTls = !isLoopback(listen.host) || options.acceptRuns?.tls === true;
      const tls = withTls ? await deskCertificate(dataDir, listen.host) : undefined;
      listener = await startDeskListener({
        desk,
        listen,
        ...(tls ? { tls } : {}),
        checkToken: (token) => {
          const check = checkRunnerToken(store.remote, token);
          if (check.ok) store.remote.tokenUsed(check.tokenId);
          return check;
        },
        revoked: (tokenId) => store.remote.token(tokenId)?.revokedAt != null,
      });
      fingerprint = tls?.fingerprint;
    } catch (error) {
      problem = `Remote runs cannot listen on ${listen.host}:${listen.port}: ${(error as Error).message}`;
    }
  }

  const view = async (): Promise<RemoteRunsView> => {
    await settling;
    return {
      enabled,
      listen,
      state: listener ? 'listening' : problem ? 'failed' : 'off',
      ...(listener ? { url: listener.url } : {}),
      ...(fingerprint ? { fingerprint } : {}),
      ...(problem ? { problem } : {}),
      tokens: store.remote.tokens().map((token) => ({ name: token.name, createdAt: token.createdAt, lastUsedAt: token.lastUsedAt })),
      rules: store.remote.rules().map((rule) => ({
        id: rule.id,
        runner: rule.runner,
        repository: rule.repository,
        pattern: rule.pattern,
        createdAt: rule.createdAt,
      })),
    };
  };

  const handlers: DeskHandlers = {
    'remote:get': view,
    'remote:configure': async (update) => {
      await settling;
      enabled = update.enabled ?? enabled;
      listen = update.listen ?? listen;
      writeJsonFile(file, { ...read(), enabled, listen });
      settling = apply();
      return view();
    },
    'remote:createToken': async ({ name }) => {
      try {
        return { name, token: makeRunnerToken(store.remote, name) };
      } catch (error) {
        if (error instanceof StoreError && error.code === 'conflict') throw new RequestError('conflict', error.message);
        throw error;
      }
    },
    'remote:revokeToken': async ({ name }) => {
      if (desk.revokeToken(name) === 0) throw new RequestError('not_found', `There is no live token for a runner named ${name}.`);
    },
    'remote:revokeRule': async ({ ruleId }) => desk.revokeRule(ruleId),
  };

  return {
    desk,
    handlers,
    async close() {
      await settling;
      enabled = false;
      settling = apply();
      await settling;
    },
  };
}
