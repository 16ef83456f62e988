import type { Handlers } from '../../../shared/contract';
import { KeyVariable } from '../../../shared/modelSetup';
import { keyEnvForUrl } from '../../../shared/providers';
import type { ModelConfig } from '../../model/config';
import { testConnection } from '../../model/connectionTest';
import { findLocalServers, localServerAt, type LocalPorts } from '../../model/localServers';

export interface ModelSetupDeps {
  /** Where the saved settings point now, with the key main holds for it. */
  savedModel(): ModelConfig;
  /** The two local ports (tests move them; see localPortsFromEnv). */
  localPorts: LocalPorts;
  env?: NodeJS.ProcessEnv;
  /** Default 10 s; tests shorten it. */
  testTimeoutMs?: number;
}

/** The welcome's and Settings' "Test connection" and local-server search. */
export function createModelSetupHandlers(deps: ModelSetupDeps): Pick<Handlers, 'model:test' | 'model:findLocal'> {
  const env = deps.env ?? process.env;
  return {
    'model:test': async ({ baseUrl, api, apiKey }) => {
      const key = apiKey ?? keyForTypedAddress(baseUrl, deps.savedModel(), env);
      const local = localServerAt(baseUrl, deps.localPorts);
      return testConnection(
        { baseUrl, api, apiKey: key },
        { ...(local ? { local } : {}), ...(deps.testTimeoutMs !== undefined ? { timeoutMs: deps.testTimeoutMs } : {}) },
      );
    },
    'model:findLocal': async () => findLocalServers(deps.localPorts),
  };
}

/**
 * The key to test an address with when none was typed: the one main holds only for the saved
 * server's own origin (scheme, host and port), else the named provider's own variable. A stored key
 * never goes to an address that was merely typed into a form.
 */
export function keyForTypedAddress(baseUrl: string, saved: ModelConfig, env: NodeJS.ProcessEnv): string | undefined {
  if (sameOrigin(baseUrl, saved.baseUrl)) return saved.apiKey;
  const variable = keyEnvForUrl(baseUrl);
  const value = variable ? env[variable] : undefined;
  return value && value.trim() !== '' ? value : undefined;
}

/** The provider key variables set in the environment: their names only. */
export function keyVariablesSet(env: NodeJS.ProcessEnv = process.env): KeyVariable[] {
  return KeyVariable.options.filter((name) => (env[name] ?? '').trim() !== '');
}

/** The scheme, host and port of an address; the address itself when it cannot be parsed, so it matches nothing else. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function sameOrigin(a: string, b: string): boolean {
  return originOf(a) === originOf(b);
}
