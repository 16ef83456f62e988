import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paneLayoutFile, readPaneLayout, writePaneLayout } from './paneLayout';

describe('pane sizes kept in the data folder', () => {
  afterEach(() => vi.restoreAllMocks());

  it('keeps what was saved, and starts from the defaults when nothing was', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tether-layout-'));
    expect(readPaneLayout(dataDir)).toEqual({});
    writePaneLayout(dataDir, { sidebarWidth: 300, reviewCollapsed: true });
    expect(readPaneLayout(dataDir)).toEqual({ sidebarWidth: 300, reviewCollapsed: true });
    expect(JSON.parse(readFileSync(paneLayoutFile(dataDir), 'utf8'))).toEqual({ sidebarWidth: 300, reviewCollapsed: true });
  });

  it.each([
    ['not JSON', '{ sidebarWidth: '],
    ['a size that would hide a pane', JSON.stringify({ sidebarWidth: 2 })],
    ['a key it does not know', JSON.stringify({ sidebarWidth: 250, zoom: 3 })],
    ['a list instead of an object', '[]'],
  ])('opens with the defaults, and says why, when the file holds %s', (_what, text) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tether-layout-'));
    writeFileSync(paneLayoutFile(dataDir), text);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(readPaneLayout(dataDir)).toEqual({});
    expect(error.mock.calls[0]![0]).toContain('layout.json');
    expect(error.mock.calls[0]![0]).toContain('default pane sizes');
  });
});
