import { BUILTIN_TOOL_NAMES, type BuiltinToolName } from '../../shared/toolCatalog';
import type { AnyTool } from './defineTool';
import { editFile } from './editFile';
import { fetchUrl } from './fetchUrl';
import { listFiles } from './listFiles';
import { readFile } from './readFile';
import { runCommand } from './runCommand';
import { searchCode } from './searchCode';
import { updatePlan } from './updatePlan';
import { writeFile } from './writeFile';

/**
 * The tools every session has, in the tool catalog's order (src/shared/toolCatalog.ts, where each
 * declares its rule family, its editable argument and the folder it works in): the one list, for
 * sessions, compaction's estimate, `permissions explain` and the MCP hub's name check. A session's
 * fetch_url consults its rules mid-call (core.ts makes it); elsewhere the plain one stands in.
 */
export function builtinTools(fetchTool: AnyTool = fetchUrl as AnyTool): readonly AnyTool[] {
  // A record over the catalog's names: a tool missing here, or one the catalog does not know, fails to compile.
  const byName: Record<BuiltinToolName, AnyTool> = {
    read_file: readFile,
    list_files: listFiles,
    search_code: searchCode,
    edit_file: editFile,
    write_file: writeFile,
    run_command: runCommand,
    update_plan: updatePlan,
    fetch_url: fetchTool,
  };
  return BUILTIN_TOOL_NAMES.map((name) => byName[name]);
}
