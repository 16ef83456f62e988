import type { AppServices } from '../../src/main/app/appServices';
import { createServices } from '../../src/main/app/createServices';
import { memoryKeyStore } from '../../src/main/app/model/keyStore';
import type { EventName, EventPayload, PendingApproval, SessionSummary } from '../../src/shared/contract';
import type { StoredEvent } from '../../src/shared/events';
import { freePort } from './runner';
import { tempDir } from './tempDirs';

/** A desk (the app's services accepting remote runs) on loopback, in this process. */
export interface TestDesk {
  services: AppServices;
  handlers: AppServices['handlers'];
  dataDir: string;
  port: number;
  url: string;
  summaries: Map<string, SessionSummary>;
  events: StoredEvent[];
  token(name: string): Promise<string>;
  /** The inbox, once it holds `count` requests (or fewer when `atLeast` is false). */
  inbox(count: number, timeoutMs?: number): Promise<PendingApproval[]>;
  close(): Promise<void>;
}

const desks: AppServices[] = [];

export async function startDesk(
  options: { dataDir?: string; port?: number; tls?: boolean } = {},
): Promise<TestDesk & { fingerprint?: string }> {
  const dataDir = options.dataDir ?? tempDir('tether-desk-');
  const port = options.port ?? (await freePort());
  const services = createServices({
    dataDir,
    host: 'serve',
    keyStore: memoryKeyStore(undefined),
    remoteRuns: { listen: { host: '127.0.0.1', port }, ...(options.tls ? { tls: true } : {}) },
  });
  desks.push(services);
  const view = await services.handlers['remote:get']({});
  if (view.state !== 'listening') throw new Error(`The desk did not listen: ${view.problem}`);
  const summaries = new Map<string, SessionSummary>();
  const events: StoredEvent[] = [];
  services.subscribe(<E extends EventName>(name: E, payload: EventPayload<E>) => {
    if (name === 'sessions:changed') summaries.set((payload as SessionSummary).id, payload as SessionSummary);
    if (name === 'session:event') events.push(payload as StoredEvent);
  });
  return {
    services,
    handlers: services.handlers,
    dataDir,
    port,
    url: view.url!,
    ...(view.fingerprint ? { fingerprint: view.fingerprint } : {}),
    summaries,
    events,
    token: async (name) => (await services.handlers['remote:createToken']({ name })).token,
    async inbox(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const pending = await services.handlers['approvals:pending']({});
        if (pending.length >= count) return pending;
        if (Date.now() > deadline) throw new Error(`The inbox held ${pending.length} requests, not ${count}, after ${timeoutMs} ms.`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      desks.splice(desks.indexOf(services), 1);
      await services.close();
    },
  };
}

export async function closeDesks(): Promise<void> {
  await Promise.all(desks.splice(0).map((services) => services.close()));
}
