import type { AnyTool } from './defineTool';
import { editFile } from './editFile';
import { listFiles } from './listFiles';
import { readFile } from './readFile';
import { runCommand } from './runCommand';
import { searchCode } from './searchCode';
import { updatePlan } from './updatePlan';
import { writeFile } from './writeFile';

/** The tools every session has, in the order the model is told about them. */
export const builtinTools: readonly AnyTool[] = [readFile, listFiles, searchCode, editFile, writeFile, runCommand, updatePlan];
