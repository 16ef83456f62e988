import { describe, expect, it } from 'vitest';
import { describeEdit } from './describeEdit';

describe('describeEdit', () => {
  it('names both commands for run_command, and says whether the changed one ran', () => {
    const asked = { command: 'npm test', timeout_ms: 120000 };
    const edited = { command: 'npm test -- --bail', timeout_ms: 120000 };
    expect(describeEdit('run_command', asked, edited, true)).toBe(
      'The person changed the command before allowing it. You asked for: `npm test`. It ran: `npm test -- --bail`.',
    );
    expect(describeEdit('run_command', asked, edited, false)).toBe(
      'The person changed the command before allowing it. You asked for: `npm test`. They changed it to: `npm test -- --bail`.',
    );
  });

  it('fences a command holding backticks or line breaks with a fence the command cannot close', () => {
    const text = describeEdit('run_command', { command: 'echo `date`' }, { command: 'echo ```x```\necho y' }, true);
    expect(text).toBe(
      'The person changed the command before allowing it. You asked for:\n```\necho `date`\n```\nIt ran:\n````\necho ```x```\necho y\n````',
    );
  });

  it('lists the other fields the person changed beside the main one', () => {
    const text = describeEdit('run_command', { command: 'make', cwd: '.' }, { command: 'make test', cwd: 'lib', timeout_ms: 5000 }, true);
    expect(text.split('\n')[1]).toBe('They also changed: cwd: "." → "lib"; timeout_ms: (not set) → 5000.');
  });

  it('describes any other tool field by field, as a JSON diff', () => {
    expect(
      describeEdit('fetch_url', { url: 'https://a.example/x', reason: 'docs' }, { url: 'https://b.example/x', reason: 'docs' }, true),
    ).toBe('The person changed the arguments before allowing this fetch_url call: url: "https://a.example/x" → "https://b.example/x".');
  });

  it('quotes the new_string of an edit in full, and only the new one', () => {
    const text = describeEdit(
      'edit_file',
      { path: 'a.ts', old_string: 'x', new_string: 'y' },
      { path: 'a.ts', old_string: 'x', new_string: 'z\nw' },
      true,
    );
    expect(text).toBe(
      'The person changed new_string before allowing the edit of a.ts. The edit used this new_string instead of yours:\n```\nz\nw\n```',
    );
  });

  it('shows a change of content as a diff, and says so when only line endings differ', () => {
    expect(describeEdit('write_file', { path: 'n.txt', content: 'a\nb\n' }, { path: 'n.txt', content: 'a\nc\n' }, true)).toContain(
      '\n-b\n+c\n',
    );
    expect(describeEdit('write_file', { path: 'n.txt', content: 'a\nb\n' }, { path: 'n.txt', content: 'a\r\nb\r\n' }, true)).toBe(
      'The person changed the content before allowing the write to n.txt: what was written differs from yours only in its line endings.',
    );
  });

  it('cuts a huge text and says how much is not shown, so the note cannot flood the context', () => {
    const text = describeEdit(
      'edit_file',
      { path: 'a', old_string: 'x', new_string: 'y' },
      { path: 'a', old_string: 'x', new_string: 'q'.repeat(20_000) },
      true,
    );
    expect(text.length).toBeLessThan(8_400);
    expect(text).toContain('[… 12,000 more characters not shown; read the file or the log to see all of it]');
  });
});
