import { z } from 'zod';
import type { ToolSpec } from '../model/provider';
import type { AnyTool } from './defineTool';

/** The tools one session may use, by name, and how the model is told about them. */
export class ToolRegistry {
  private readonly byName = new Map<string, AnyTool>();

  constructor(tools: readonly AnyTool[]) {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`Two tools are named "${tool.name}"; tool names must be unique.`);
      this.byName.set(tool.name, tool);
    }
  }

  get(name: string): AnyTool | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  /** Built once per registry: the tool list is part of the prompt prefix and must stay byte-identical. */
  readonly specs = (): ToolSpec[] => {
    this.cachedSpecs ??= [...this.byName.values()].map(toSpec);
    return this.cachedSpecs;
  };
  private cachedSpecs: ToolSpec[] | undefined;
}

function toSpec(tool: AnyTool): ToolSpec {
  if (tool.inputSchema) return { name: tool.name, description: tool.description, parameters: tool.inputSchema };
  // `io: 'input'` so that parameters with defaults are optional for the model.
  const { $schema: _schema, ...parameters } = z.toJSONSchema(tool.parameters, { io: 'input' }) as Record<string, unknown>;
  return { name: tool.name, description: tool.description, parameters };
}
