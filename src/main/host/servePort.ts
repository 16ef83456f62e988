import path from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeJsonFile } from '../settings/jsonFile';

/**
 * The port `tether serve` picked last time, kept in <dataDir>/serve.json. Started again without
 * --port, it listens there again when it can: a tab left open then reaches the new server, is told
 * its token no longer holds (the server restarted), and takes the address the person pastes into it
 * without a reload. The token is never kept: each run makes its own.
 */
const ServeState = z.object({ port: z.number().int().min(1).max(65535) });

function serveStateFile(dataDir: string): string {
  return path.join(dataDir, 'serve.json');
}

/** The port of the last run, or undefined when there is none or the file cannot be used (a convenience, never an error). */
export function lastServePort(dataDir: string): number | undefined {
  try {
    return readJsonFile(serveStateFile(dataDir), ServeState.optional(), {
      whenMissing: () => undefined,
      fail: (problem) => new Error(problem),
    })?.port;
  } catch {
    return undefined;
  }
}

export function keepServePort(dataDir: string, port: number): void {
  try {
    writeJsonFile(serveStateFile(dataDir), { port });
  } catch {
    // A data folder that cannot be written costs only the same address next time.
  }
}
