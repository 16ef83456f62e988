import path from 'node:path';
import { PaneLayout } from '../../shared/contract';
import { readJsonFile, writeJsonFile } from './jsonFile';

/** Where the window's pane sizes are kept: beside settings.json, apart from it (nothing to review there). */
export function paneLayoutFile(dataDir: string): string {
  return path.join(dataDir, 'layout.json');
}

/**
 * The pane sizes the person last set. A missing, unreadable or hand-broken file means the defaults:
 * sizes are a convenience, and a bad one must never keep the window from opening.
 */
export function readPaneLayout(dataDir: string): PaneLayout {
  try {
    return readJsonFile(paneLayoutFile(dataDir), PaneLayout, { whenMissing: () => ({}), fail: (problem) => new Error(problem) });
  } catch (error) {
    console.error(`Tether: ${paneLayoutFile(dataDir)} ${(error as Error).message} The default pane sizes are used.`);
    return {};
  }
}

export function writePaneLayout(dataDir: string, layout: PaneLayout): void {
  writeJsonFile(paneLayoutFile(dataDir), layout);
}
