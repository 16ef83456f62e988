import type { Json } from '../../../shared/json';

/** A tool call's arguments as an object, whether they came as the model's JSON text or parsed. */
export function argsObject(args: Json | string | undefined): Record<string, Json> | null {
  let value: unknown = args;
  if (typeof args === 'string') {
    try {
      value = JSON.parse(args);
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  return value as Record<string, Json>;
}

export function stringArg(args: Record<string, Json> | null, name: string): string | undefined {
  const value = args?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** The model's own words on why it makes the call, when it gave them. */
export function statedReason(args: Record<string, Json> | null): string | undefined {
  return stringArg(args, 'description') ?? stringArg(args, 'reason') ?? stringArg(args, 'prompt');
}

/** One line naming what a call acts on: the command, the path or the address. */
export function callSubject(args: Record<string, Json> | null): string | undefined {
  const command = stringArg(args, 'command');
  if (command !== undefined) return `$ ${command}`;
  return stringArg(args, 'path') ?? stringArg(args, 'url') ?? stringArg(args, 'pattern') ?? stringArg(args, 'query');
}
