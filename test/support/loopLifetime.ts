import { afterEach } from 'vitest';
import type { Core } from '../../src/main/core';
import type { ScriptedModel } from '../fixtures/scriptedModel';
import { removeTempDirs } from './tempDirs';

/** The core and the scripted model one test runs the loop with. */
export interface LoopHandles {
  core?: Core | undefined;
  server?: ScriptedModel | undefined;
}

/** Handles a test fills in; after each test the core closes, the model server stops and the temporary folders go. */
export function closedAfterEach(): LoopHandles {
  const handles: LoopHandles = {};
  afterEach(async () => {
    handles.core?.close();
    handles.core = undefined;
    await handles.server?.close();
    handles.server = undefined;
    removeTempDirs();
  });
  return handles;
}
