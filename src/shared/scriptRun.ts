import { z } from 'zod';

/**
 * What a command runs that its own words do not show: the script `npm test` runs from package.json
 * (with its pre and post scripts), the recipe of `make build`, the options pytest's configuration
 * adds. Read from the workspace's files when the request is made, and shown in it, so a person
 * allowing `npm test` sees what `npm test` is today, and whether this session changed it.
 */

/** One thing it runs: a script, a recipe, a configured option. */
export const ScriptStep = z.object({
  /** Its name where it is written: `pretest`, `test`, `build:`, `addopts`. */
  name: z.string(),
  /** What it runs, as written there (variables are not expanded). */
  text: z.string(),
  /** This session changed it since it started (or wrote the file): it is not what the person had. */
  changed: z.boolean().optional(),
});
export type ScriptStep = z.infer<typeof ScriptStep>;

export const ScriptRun = z.object({
  /** The part of the command line that runs it, as the person reads it: `npm test`, `make`, `pytest`. */
  command: z.string(),
  /** The file that says what it runs, relative to the workspace: package.json, Makefile, pytest.ini. */
  file: z.string(),
  /** In the order they run. Empty with `problem` when the file could not be read. */
  steps: z.array(ScriptStep),
  /** What could not be read or understood (a missing file, bad JSON, no such script): the request still asks. */
  problem: z.string().optional(),
  /** Something else it may run that the file does not show (a Makefile's includes, pytest's conftest.py). */
  note: z.string().optional(),
});
export type ScriptRun = z.infer<typeof ScriptRun>;
