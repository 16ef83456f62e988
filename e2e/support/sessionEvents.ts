import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { ServedApp } from './servedApp';

/** The types of a session's events, in order, read with the CLI from the served app's data folder. */
export function sessionEventTypes(app: ServedApp, sessionId: string): string[] {
  const out = execFileSync(
    process.execPath,
    [path.resolve('bin/tether.js'), 'sessions', 'show', sessionId, '--data-dir', app.dataDir, '--json'],
    {
      encoding: 'utf8',
    },
  );
  return out
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => (JSON.parse(line) as { event: { type: string } }).event.type);
}
