import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../shared/events';
import { initialSessionState, reduce } from '../../shared/session';
import { buildModelItems } from './context';

const started: SessionEvent = { type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'http://x', maxSteps: 5 };
const usage = { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 };
const fold = (events: SessionEvent[]) => events.reduce(reduce, initialSessionState);
const shown = (events: SessionEvent[]) =>
  buildModelItems(fold(events)).map((item) =>
    item.type === 'user' || item.type === 'assistant' ? `${item.type}:${item.text}` : item.type,
  );

describe('what the model is told about reverts', () => {
  const turn: SessionEvent[] = [
    started,
    { type: 'user.messaged', text: 'task' },
    { type: 'model.responded', usage, items: [{ type: 'tool_call', callId: 'a', name: 'edit_file', arguments: '{}' }] },
    { type: 'tool.finished', callId: 'a', name: 'edit_file', outcome: 'ok', title: 't', output: 'ok', durationMs: 1 },
    { type: 'model.responded', usage, items: [{ type: 'assistant', text: 'Done.' }] },
  ];
  const reverts: SessionEvent[] = [
    {
      type: 'changes.reverted',
      path: 'src/a.ts',
      hunks: [{ oldStart: 10, oldLines: 5, newStart: 10, newLines: 5 }],
      note: 'src/a.ts lines 10-14 (hunk)',
    },
    { type: 'changes.reverted', path: 'src/b.ts', hunks: 'file', note: 'src/b.ts (whole file)' },
  ];

  it('tells reverts made together in one note, after what came before them and before the next message', () => {
    expect(shown([...turn, ...reverts, { type: 'user.messaged', text: 'next' }])).toEqual([
      'user:task',
      'tool_call',
      'tool_result',
      'assistant:Done.',
      expect.stringMatching(/^user:The person reverted these changes: src\/a\.ts lines 10-14 \(hunk\), src\/b\.ts \(whole file\)\. /),
      'user:next',
    ]);
  });

  it('keeps each note at its place in later requests, once, and keeps separate reverts separate', () => {
    const later = shown([
      ...turn,
      reverts[0]!,
      { type: 'user.messaged', text: 'next' },
      { type: 'model.responded', usage, items: [{ type: 'assistant', text: 'ok' }] },
      reverts[1]!,
    ]);
    expect(later.filter((item) => item.includes('reverted these changes'))).toHaveLength(2);
    expect(later.findIndex((item) => item.includes('src/a.ts lines 10-14'))).toBe(4);
    expect(later.at(-1)).toMatch(/src\/b\.ts \(whole file\)/);
    expect(later.at(-1)).not.toMatch(/src\/a\.ts/);
  });

  const undo = (revert: SessionEvent): SessionEvent => {
    if (revert.type !== 'changes.reverted') throw new Error('not a revert');
    return { ...revert, type: 'changes.revert_undone' };
  };

  it('says nothing of a revert undone before the model could hear of it, and keeps the others', () => {
    const items = shown([...turn, reverts[0]!, reverts[1]!, undo(reverts[0]!), { type: 'user.messaged', text: 'next' }]);
    const notes = items.filter((item) => item.includes('The person'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/reverted these changes: src\/b\.ts \(whole file\)\./);
    expect(notes[0]).not.toMatch(/src\/a\.ts|undid/);
    expect(
      shown([...turn, reverts[1]!, undo(reverts[1]!), { type: 'user.messaged', text: 'next' }]).some((item) => item.includes('The person')),
    ).toBe(false);
  });

  it('a revert made again after its undo is told once, as a revert', () => {
    const items = shown([...turn, reverts[1]!, undo(reverts[1]!), reverts[1]!]);
    expect(items.at(-1)).toMatch(/^user:The person reverted these changes: src\/b\.ts \(whole file\)\. /);
  });

  it('tells an undo of a revert the model already heard of, at the undo’s place', () => {
    const items = shown([
      ...turn,
      reverts[1]!,
      { type: 'user.messaged', text: 'next' },
      { type: 'model.responded', usage, items: [{ type: 'assistant', text: 'ok' }] },
      undo(reverts[1]!),
      { type: 'user.messaged', text: 'again' },
    ]);
    expect(items.filter((item) => item.includes('reverted these changes'))).toHaveLength(1);
    expect(items.at(-2)).toMatch(/^user:The person undid their earlier revert of these changes, .*: src\/b\.ts \(whole file\)\./);
    expect(items.at(-2)).not.toMatch(/reverted these changes/);
  });
});
