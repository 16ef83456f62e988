import type { LocalServerView } from '../../shared/modelSetup';
import { asArray, asObject, asString } from './wire';

/**
 * Finds model servers running on this machine: Ollama on 127.0.0.1:11434 and LM Studio on
 * 127.0.0.1:1234. Only those two addresses are ever asked, with a short timeout, so the welcome can
 * offer them without waiting and without reaching anything else.
 */

export interface LocalPorts {
  ollama: number;
  lmstudio: number;
}

export const DEFAULT_LOCAL_PORTS: LocalPorts = { ollama: 11434, lmstudio: 1234 };

const NAMES: Record<keyof LocalPorts, string> = { ollama: 'Ollama', lmstudio: 'LM Studio' };
const MAX_LISTED = 50;

export function localBaseUrl(id: keyof LocalPorts, ports: LocalPorts): string {
  return `http://127.0.0.1:${ports[id]}/v1`;
}

/** The local server `baseUrl` points at (127.0.0.1 or localhost, on one of the two ports), if any. */
export function localServerAt(baseUrl: string, ports: LocalPorts): keyof LocalPorts | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost')) return undefined;
  const port = Number(url.port);
  return (Object.keys(ports) as (keyof LocalPorts)[]).find((id) => ports[id] === port);
}

/** Asks both addresses at once; a server that does not answer a model listing within `timeoutMs` is not there. */
export async function findLocalServers(
  ports: LocalPorts = DEFAULT_LOCAL_PORTS,
  options: { timeoutMs?: number; fetch?: typeof fetch } = {},
): Promise<LocalServerView[]> {
  const fetcher = options.fetch ?? fetch;
  const found = await Promise.all(
    (Object.keys(ports) as (keyof LocalPorts)[]).map(async (id): Promise<LocalServerView | undefined> => {
      const baseUrl = localBaseUrl(id, ports);
      try {
        const response = await fetcher(`${baseUrl}/models`, {
          headers: { accept: 'application/json' },
          redirect: 'error',
          signal: AbortSignal.timeout(options.timeoutMs ?? 800),
        });
        if (!response.ok) return undefined;
        const body = asObject(await response.json());
        if (!body || !Array.isArray(body.data)) return undefined;
        const models = asArray(body.data)
          .map((entry) => asString(asObject(entry)?.id))
          .filter((model): model is string => model !== undefined)
          .slice(0, MAX_LISTED);
        return { id, name: NAMES[id], baseUrl, models };
      } catch {
        return undefined;
      }
    }),
  );
  return found.filter((server): server is LocalServerView => server !== undefined);
}

/**
 * The ports to probe. `TETHER_TEST_LOCAL_MODEL_PORTS` ("ollama=43001,lmstudio=43002") exists only so
 * tests can stand a fake Ollama on a free port; the host is always 127.0.0.1. Anything unreadable in
 * it is ignored, leaving the real ports.
 */
export function localPortsFromEnv(env: NodeJS.ProcessEnv = process.env): LocalPorts {
  const ports = { ...DEFAULT_LOCAL_PORTS };
  for (const pair of (env.TETHER_TEST_LOCAL_MODEL_PORTS ?? '').split(',')) {
    const [name, value] = pair.split('=').map((part) => part.trim());
    const port = Number(value);
    if ((name === 'ollama' || name === 'lmstudio') && Number.isInteger(port) && port > 0 && port < 65536) ports[name] = port;
  }
  return ports;
}
