import { describe, expect, it } from 'vitest';
import { parseRule } from '../permissions/ruleSyntax';
import { McpToolNames, serverSegment } from './mcpToolNames';

describe('MCP tool names', () => {
  it('joins server and tool as mcp__<server>__<tool>', () => {
    expect(new McpToolNames().name('github', 'create_issue')).toBe('mcp__github__create_issue');
  });

  it('sanitises both parts to what providers accept, keeping the server part free of "__"', () => {
    const names = new McpToolNames();
    expect(names.name('My Server!', 'do.thing/now')).toBe('mcp__My_Server__do_thing_now');
    expect(names.name('__odd__name__', 'x')).toBe('mcp__odd_name__x');
    expect(names.name('', '')).toBe('mcp__server__tool');
    expect(serverSegment('a__b')).toBe('a_b');
  });

  it('cuts a long name to 64 characters with a hash of the original, so two long names stay apart', () => {
    const names = new McpToolNames();
    const long = `very_long_tool_name_${'x'.repeat(80)}`;
    const first = names.name('server', `${long}_one`);
    const second = names.name('server', `${long}_two`);
    for (const name of [first, second]) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(first).toHaveLength(64);
    expect(first).not.toBe(second);
  });

  it('numbers clashes in order: two tools, or two servers, that sanitise alike', () => {
    const names = new McpToolNames(['mcp__taken__x']);
    expect(names.name('s', 'a.b')).toBe('mcp__s__a_b');
    expect(names.name('s', 'a_b')).toBe('mcp__s__a_b_2');
    expect(names.name('my server', 'go')).toBe('mcp__my_server__go');
    expect(names.name('my_server', 'go')).toBe('mcp__my_server__go_2');
    expect(names.name('taken', 'x')).toBe('mcp__taken__x_2');
  });

  it('gives names the permission rules can match by server', () => {
    const name = new McpToolNames().name('My Server', 'list.things');
    expect(parseRule('mcp__My_Server__*').target).toMatchObject({ kind: 'tool' });
    const rule = parseRule('mcp__My_Server').target;
    expect(rule.kind === 'tool' && rule.names.test(name)).toBe(true);
  });
});
