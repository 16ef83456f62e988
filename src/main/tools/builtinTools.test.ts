import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  BUILTIN_TOOL_NAMES,
  BUILTIN_TOOL_TRAITS,
  fileArgumentOf,
  ruleCoversAlso,
  ruleToolOf,
  sameRuleFamily,
  toolCalledElsewhere,
  toolsReadRulesCover,
  toolTraits,
  type ToolTraits,
} from '../../shared/toolCatalog';
import { builtinTools } from './builtinTools';

/** The names of a tool's parameters, from the JSON schema the model is shown. */
function parameterNames(tool: { parameters: z.ZodType<unknown> }): string[] {
  const schema = z.toJSONSchema(tool.parameters, { io: 'input' }) as { properties?: Record<string, unknown> };
  return Object.keys(schema.properties ?? {});
}

describe('the built-in tools and their catalog', () => {
  it('lists every tool once, in the catalog order, each under its own name', () => {
    expect(builtinTools().map((tool) => tool.name)).toEqual(BUILTIN_TOOL_NAMES);
  });

  it('takes the session’s fetch_url in its place', () => {
    const fetchTool = { ...builtinTools().find((tool) => tool.name === 'fetch_url')! };
    expect(builtinTools(fetchTool)[BUILTIN_TOOL_NAMES.indexOf('fetch_url')]).toBe(fetchTool);
  });

  it.each(BUILTIN_TOOL_NAMES)('%s: its editable argument and its folder argument are parameters it takes', (name) => {
    const tool = builtinTools().find((candidate) => candidate.name === name)!;
    const traits = toolTraits(name)!;
    const parameters = parameterNames(tool);
    if (traits.editable) expect(parameters).toContain(traits.editable.name);
    if (traits.folder) expect(parameters).toContain(traits.folder.argument);
  });

  it('says which tools rules treat as one: edit_file and write_file, and nothing else', () => {
    expect(sameRuleFamily('edit_file', 'write_file')).toBe(true);
    expect(sameRuleFamily('write_file', 'edit_file')).toBe(true);
    expect(sameRuleFamily('read_file', 'list_files')).toBe(false);
    expect(sameRuleFamily('run_command', 'edit_file')).toBe(false);
    expect(sameRuleFamily('mcp__x__y', 'mcp__x__z')).toBe(false);
    expect(sameRuleFamily('mcp__x__y', 'mcp__x__y')).toBe(true);
  });

  it('knows no MCP tool and no name that only looks like a built-in one', () => {
    expect(toolTraits('mcp__github__create_issue')).toBeUndefined();
    expect(toolTraits('toString')).toBeUndefined();
    expect(toolTraits('__proto__')).toBeUndefined();
  });

  it.each(BUILTIN_TOOL_NAMES)('%s: its traits agree with the risk the tool declares', (name) => {
    const { risk } = builtinTools().find((candidate) => candidate.name === name)!;
    const traits: ToolTraits = BUILTIN_TOOL_TRAITS[name];
    // Only reads: it asks in no mode, which is what a read (or no) risk means to the modes.
    expect(traits.onlyReads).toBe(risk === 'read' || risk === 'none');
    expect(traits.changesFiles).toBe(risk === 'edit' ? 'always' : risk === 'exec' ? 'as its command does' : 'never');
    // A tool that writes a file says how; exactly the write family does.
    expect(traits.writes !== undefined).toBe(traits.rules === 'write');
  });

  it('has a trait every tool must declare, or does not compile', () => {
    // @ts-expect-error: a tool with its rule family but not whether it only reads or changes files.
    const missing = { rules: 'plain' } satisfies ToolTraits;
    expect(missing.rules).toBe('plain');
  });

  // The tables the traits replaced, as they were, so the traits say what each place used to decide.
  it('says which tools only read as the fold’s ONLY_READS did', () => {
    const onlyReads = BUILTIN_TOOL_NAMES.filter((name) => toolTraits(name)?.onlyReads);
    expect(new Set(onlyReads)).toEqual(new Set(['read_file', 'list_files', 'search_code', 'update_plan']));
  });

  it('names the file a call works on as hooks’ FILE_TOOLS did (their `path`)', () => {
    const fileTools = BUILTIN_TOOL_NAMES.filter((name) => fileArgumentOf(name) !== undefined);
    expect(new Set(fileTools)).toEqual(new Set(['read_file', 'edit_file', 'write_file']));
    for (const name of fileTools) expect(fileArgumentOf(name)).toBe('path');
    expect(fileArgumentOf('mcp__fs__read')).toBeUndefined();
  });

  it('gives Claude Code’s names as hooks’ table did', () => {
    const claudeCode = Object.fromEntries(
      BUILTIN_TOOL_NAMES.flatMap((name) => {
        const known = toolTraits(name)?.claudeCode;
        return known === undefined ? [] : [[name, known]];
      }),
    );
    expect(claudeCode).toEqual({
      run_command: 'Bash',
      edit_file: 'Edit',
      write_file: 'Write',
      read_file: 'Read',
      search_code: 'Grep',
      list_files: 'Glob',
      fetch_url: 'WebFetch',
    });
  });

  it('knows the names other agents use as the rule syntax’s FOREIGN_NAMES did, in any case', () => {
    const foreign: Record<string, string> = {
      bash: 'run_command',
      shell: 'run_command',
      run_shell_command: 'run_command',
      read: 'read_file',
      edit: 'edit_file',
      multiedit: 'edit_file',
      write: 'write_file',
      glob: 'list_files',
      ls: 'list_files',
      grep: 'search_code',
      webfetch: 'fetch_url',
    };
    for (const [name, tool] of Object.entries(foreign)) {
      expect(toolCalledElsewhere(name)).toBe(tool);
      expect(toolCalledElsewhere(name.toUpperCase())).toBe(tool);
    }
    const named = BUILTIN_TOOL_NAMES.flatMap((name) => {
      const traits: ToolTraits = BUILTIN_TOOL_TRAITS[name];
      return [traits.claudeCode, ...(traits.alsoCalled ?? [])].flatMap((other) => (other ? [other.toLowerCase()] : []));
    });
    expect(new Set(named)).toEqual(new Set(Object.keys(foreign)));
    for (const nobody of ['run_command', 'toString', 'constructor', '']) expect(toolCalledElsewhere(nobody)).toBeUndefined();
  });

  it('writes a family’s rules with the tool Allow always used, and covers the reads the rule text names', () => {
    expect([ruleToolOf('read'), ruleToolOf('write'), ruleToolOf('domain'), ruleToolOf('command')]).toEqual([
      'read_file',
      'edit_file',
      'fetch_url',
      'run_command',
    ]);
    expect(toolsReadRulesCover()).toEqual(['read_file', 'list_files', 'search_code']);
    expect(ruleCoversAlso('read_file(src/**)')).toBe(
      'A read_file rule covers every read of these paths: by read_file, list_files and search_code.',
    );
    expect(ruleCoversAlso('write_file(src/**)')).toBe(
      'A write rule covers every write of these paths: by edit_file, write_file and the redirections of commands (> file).',
    );
    expect(ruleCoversAlso('list_files(src)')).toBeUndefined();
  });
});
