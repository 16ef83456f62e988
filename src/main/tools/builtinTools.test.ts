import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUILTIN_TOOL_NAMES, sameRuleFamily, toolTraits } from '../../shared/toolCatalog';
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
});
