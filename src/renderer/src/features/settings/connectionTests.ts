import { createStore } from 'zustand/vanilla';
import type { SettingsView } from '../../../../shared/contract';
import type { ModelApi } from '../../../../shared/conversation';
import { HttpUrl, type ConnectionTestRequest, type ConnectionTestResult } from '../../../../shared/modelSetup';

/**
 * Everything a connection test's answer depends on: an answer about another target says nothing
 * about this one ("Key refused" before a key was pasted, "does not answer" before the address was
 * fixed, a listing made with a key since forgotten).
 */
export interface ConnectionTarget {
  baseUrl: string;
  api: ModelApi;
  /** The key typed in the form and not saved yet; '' or absent for none. */
  apiKey?: string;
  /** What main holds and sends when no key is typed: the saved address's stored key, the providers' variables. */
  held: Pick<SettingsView, 'baseUrl' | 'hasApiKey' | 'storedKeyFor' | 'keyVariables'>;
}

export interface ConnectionTestState {
  status: 'idle' | 'testing' | 'done';
  /** Why the address cannot be tested at all (not http or https), checked before asking main. */
  invalid: string | null;
  /** The last answer; shown only for the target it answered (resultFor). */
  answer: ConnectionTestResult | null;
}

/** "Test connection" for one form: one test at a time, its answer kept with what it answered for. */
export interface ConnectionTests {
  state(): ConnectionTestState;
  subscribe(listener: () => void): () => void;
  run(target: ConnectionTarget): Promise<ConnectionTestResult | null>;
  /** The last answer, if it was for this very target; null otherwise. */
  resultFor(target: ConnectionTarget): ConnectionTestResult | null;
  reset(): void;
}

export function createConnectionTests(ask: (request: ConnectionTestRequest) => Promise<ConnectionTestResult | null>): ConnectionTests {
  const store = createStore<ConnectionTestState>()(() => ({ status: 'idle', invalid: null, answer: null }));
  // What the answer is for, typed key included, kept here only: it is compared, never stored in the
  // state a component or a devtool reads, never logged.
  let answeredFor: ConnectionTarget | null = null;
  let latest = 0;
  return {
    state: store.getState,
    subscribe: store.subscribe,
    async run(target) {
      const parsed = HttpUrl.safeParse(target.baseUrl.trim());
      if (!parsed.success) {
        latest++;
        answeredFor = null;
        store.setState({
          invalid: parsed.error.issues[0]?.message ?? 'Type a full http:// or https:// address.',
          answer: null,
          status: 'idle',
        });
        return null;
      }
      const ticket = ++latest;
      const asked: ConnectionTarget = { ...target, held: { ...target.held, keyVariables: [...target.held.keyVariables] } };
      store.setState({ invalid: null, status: 'testing' });
      const answer = await ask({ baseUrl: parsed.data, api: target.api, ...(target.apiKey ? { apiKey: target.apiKey } : {}) });
      // A later test (another address or key typed meanwhile) wins.
      if (ticket !== latest) return answer;
      answeredFor = answer ? asked : null;
      store.setState({ answer, status: answer ? 'done' : 'idle' });
      return answer;
    },
    resultFor(target) {
      const { answer } = store.getState();
      return answer && answeredFor && sameTarget(answeredFor, target) ? answer : null;
    },
    reset() {
      latest++;
      answeredFor = null;
      store.setState({ status: 'idle', invalid: null, answer: null });
    },
  };
}

function sameTarget(a: ConnectionTarget, b: ConnectionTarget): boolean {
  return (
    sameAddress(a.baseUrl, b.baseUrl) &&
    a.api === b.api &&
    (a.apiKey ?? '') === (b.apiKey ?? '') &&
    a.held.baseUrl === b.held.baseUrl &&
    a.held.hasApiKey === b.held.hasApiKey &&
    a.held.storedKeyFor === b.held.storedKeyFor &&
    a.held.keyVariables.join('\n') === b.held.keyVariables.join('\n')
  );
}

function sameAddress(a: string, b: string): boolean {
  const bare = (url: string) => url.trim().replace(/\/+$/, '');
  return bare(a) === bare(b);
}
