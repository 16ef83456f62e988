import { useCallback, useRef, useState } from 'react';
import type { ModelApi } from '../../../../shared/conversation';
import { HttpUrl, type ConnectionTestResult } from '../../../../shared/modelSetup';
import { useApp } from '../../stores/useApp';

export interface ConnectionTest {
  status: 'idle' | 'testing' | 'done';
  /** The last answer, for the address and API it was asked about. */
  result: ConnectionTestResult | null;
  /** `baseUrl|api` the result belongs to: a result for another address is stale. */
  testedFor: string | null;
  /** Why the address cannot be tested at all (not http or https), checked before asking main. */
  invalid: string | null;
  run(target: { baseUrl: string; api: ModelApi; apiKey?: string }): Promise<ConnectionTestResult | null>;
  reset(): void;
}

export function connectionKey(baseUrl: string, api: ModelApi): string {
  return `${baseUrl.trim().replace(/\/+$/, '')}|${api}`;
}

/** "Test connection" for a form: one test at a time, its answer kept with the address it answered for. */
export function useConnectionTest(): ConnectionTest {
  const testConnection = useApp((state) => state.testConnection);
  const [status, setStatus] = useState<ConnectionTest['status']>('idle');
  const [result, setResult] = useState<ConnectionTestResult | null>(null);
  const [testedFor, setTestedFor] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const latest = useRef(0);

  const run = useCallback<ConnectionTest['run']>(
    async ({ baseUrl, api, apiKey }) => {
      const parsed = HttpUrl.safeParse(baseUrl.trim());
      if (!parsed.success) {
        setInvalid(parsed.error.issues[0]?.message ?? 'Type a full http:// or https:// address.');
        setResult(null);
        setStatus('idle');
        return null;
      }
      setInvalid(null);
      const ticket = ++latest.current;
      setStatus('testing');
      const answer = await testConnection({ baseUrl: parsed.data, api, ...(apiKey ? { apiKey } : {}) });
      // A later test (another address typed meanwhile) wins.
      if (ticket !== latest.current) return answer;
      setResult(answer);
      setTestedFor(connectionKey(baseUrl, api));
      setStatus(answer ? 'done' : 'idle');
      return answer;
    },
    [testConnection],
  );

  const reset = useCallback(() => {
    latest.current++;
    setStatus('idle');
    setResult(null);
    setTestedFor(null);
    setInvalid(null);
  }, []);

  return { status, result, testedFor, invalid, run, reset };
}
