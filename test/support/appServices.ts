import type { EventName, EventPayload } from '../../src/shared/contract';
import type { Updater } from '../../src/main/app/updates/autoUpdates';
import type { SessionEventType, StoredEvent } from '../../src/shared/events';
import type { AppServices } from '../../src/main/app/appServices';
import { createServices } from '../../src/main/app/createServices';
import { memoryKeyStore } from '../../src/main/app/model/keyStore';
import { writeAppSettings } from '../../src/main/settings/appSettings';
import { startScriptedModel, type ScriptedModel, type Turn } from '../fixtures/scriptedModel';
import { tempDir } from './tempDirs';

export interface OpenedServices {
  services: AppServices;
  handlers: AppServices['handlers'];
  /** Every session event the services pushed, in order. */
  events: StoredEvent[];
  server: ScriptedModel;
  dataDir: string;
  /** The first pushed event of that type (or that matches), waiting for it; the error lists what came. */
  waitForEvent(match: SessionEventType | ((stored: StoredEvent) => boolean), timeoutMs?: number): Promise<StoredEvent>;
  /** Waits until `count` events of `type` were pushed. */
  waitForCount(type: SessionEventType, count: number, timeoutMs?: number): Promise<void>;
  /** Closes these services now (the app quits), leaving the scripted model running. */
  close(): Promise<void>;
}

const opened: AppServices[] = [];
const servers: ScriptedModel[] = [];

/**
 * The services behind the desktop app and `tether serve`, as the UI reaches them (contract
 * handlers and pushed events), with the scripted model as the configured model. A given `dataDir`
 * or `server` is reused (a restart of the app on the same data); `closeServices` (in afterEach)
 * closes what this opened.
 */
export async function openServices(
  options: { turns?: Turn[]; dataDir?: string; server?: ScriptedModel; updater?: Updater } = {},
): Promise<OpenedServices> {
  const dataDir = options.dataDir ?? tempDir('tether-data-');
  let server = options.server;
  if (server) server.push(...(options.turns ?? []));
  else {
    server = await startScriptedModel({ turns: options.turns ?? [] });
    servers.push(server);
  }
  writeAppSettings(dataDir, { model: { baseUrl: server.baseUrl, api: 'chat', model: 'scripted-model' } });
  const services = createServices({
    dataDir,
    host: 'serve',
    keyStore: memoryKeyStore('test-key'),
    ...(options.updater ? { updater: options.updater } : {}),
  });
  opened.push(services);
  const events: StoredEvent[] = [];
  services.subscribe(<E extends EventName>(name: E, payload: EventPayload<E>) => {
    if (name === 'session:event') events.push(payload as StoredEvent);
  });
  const saw = () => `saw ${events.map((stored) => stored.event.type).join(', ') || 'nothing'}`;
  const poll = async <T>(found: () => T | undefined, what: string, timeoutMs: number): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = found();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`waited for ${what}; ${saw()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return {
    services,
    handlers: services.handlers,
    events,
    server,
    dataDir,
    waitForEvent: (match, timeoutMs = 20_000) => {
      const matches = typeof match === 'string' ? (stored: StoredEvent) => stored.event.type === match : match;
      return poll(() => events.find(matches), typeof match === 'string' ? match : 'a matching event', timeoutMs);
    },
    waitForCount: async (type, count, timeoutMs = 20_000) => {
      await poll(
        () => (events.filter((stored) => stored.event.type === type).length >= count ? true : undefined),
        `${count} ${type}`,
        timeoutMs,
      );
    },
    close: async () => {
      opened.splice(opened.indexOf(services), 1);
      await services.close();
    },
  };
}

export async function closeServices(): Promise<void> {
  for (const services of opened.splice(0)) await services.close();
  for (const server of servers.splice(0)) await server.close();
}
