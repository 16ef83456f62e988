import { useState, useSyncExternalStore } from 'react';
import { useApp } from '../../stores/useApp';
import { createConnectionTests, type ConnectionTests, type ConnectionTestState } from './connectionTests';

/** The answer itself only through resultFor: never shown for a target it did not answer. */
export type ConnectionTest = Omit<ConnectionTestState, 'answer'> & Pick<ConnectionTests, 'run' | 'resultFor' | 'reset'>;

/** "Test connection" for a form (connectionTests.ts), redrawn as its test goes. */
export function useConnectionTest(): ConnectionTest {
  const testConnection = useApp((state) => state.testConnection);
  const [tests] = useState(() => createConnectionTests((request) => testConnection(request)));
  const { status, invalid } = useSyncExternalStore(tests.subscribe, tests.state);
  return { status, invalid, run: tests.run, resultFor: tests.resultFor, reset: tests.reset };
}
