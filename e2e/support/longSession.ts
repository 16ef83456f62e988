import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LongSession } from '../../bench/renderer/longSession';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Writes a long session into a data folder through the real store, as the renderer benchmark does
 * (bench/renderer/longSession.ts). The store imports its migrations with Vite's `?raw`, which
 * Playwright's loader does not know, so the writer runs through Vite's own module loader.
 */
export async function writeLongSessionWithVite(options: {
  dataDir: string;
  workspace: string;
  baseUrl: string;
  minEvents: number;
}): Promise<LongSession & { lastAnswerMark: string }> {
  const { createServer } = await import('vite');
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    const module = (await server.ssrLoadModule('/bench/renderer/longSession.ts')) as typeof import('../../bench/renderer/longSession');
    return { ...module.writeLongSession(options), lastAnswerMark: module.LAST_ANSWER_MARK };
  } finally {
    await server.close();
  }
}
