import { isDeepStrictEqual } from 'node:util';
import { toolTraits } from '../../shared/toolCatalog';
import { unifiedDiff } from '../workspace/unifiedDiff';

/** The most characters of one quoted text (a command, a new_string, a diff) the note carries. */
const MAX_QUOTED_CHARS = 8000;

/**
 * Tells the model exactly what the person changed in its call before allowing it, so it does not
 * reason from arguments that never ran. `ran` says whether the changed call ran or was stopped (by a
 * deny rule): the wording differs, the facts do not. `asked` and `edited` are the parsed arguments.
 */
export function describeEdit(toolName: string, asked: object, edited: object, ran: boolean): string {
  const before = asked as Record<string, unknown>;
  const after = edited as Record<string, unknown>;
  const changed = changedFields(before, after);
  // The argument a person edits in the dialog (the tool catalog's); other tools' edits are described field by field.
  const field = toolTraits(toolName)?.editable?.name;
  const lines: string[] = [];
  const others = changed.filter((name) => name !== field);

  if (field !== undefined && changed.includes(field)) {
    const was = String(before[field] ?? '');
    const now = String(after[field] ?? '');
    const path = typeof after.path === 'string' ? after.path : '';
    if (field === 'command') {
      lines.push(
        joinSentences([
          'The person changed the command before allowing it.',
          labelled('You asked for', was),
          labelled(ran ? 'It ran' : 'They changed it to', now),
        ]),
      );
    } else if (field === 'new_string') {
      lines.push(
        `The person changed new_string before allowing the edit of ${path}. ${labelled(`${ran ? 'The edit used' : 'Their version has'} this new_string instead of yours`, now)}`,
      );
    } else {
      const diff = unifiedDiff(path, was, now).patch;
      const what = ran ? 'What was written' : 'Their content';
      lines.push(
        diff === ''
          ? `The person changed the content before allowing the write to ${path}: ${what.toLowerCase()} differs from yours only in its line endings.`
          : `The person changed the content before allowing the write to ${path}. ${labelled(`${what} differs from yours by this diff (yours → theirs)`, diff, 'diff')}`,
      );
    }
    if (others.length > 0) lines.push(`They also changed: ${fieldChanges(others, before, after)}.`);
  } else {
    lines.push(`The person changed the arguments before allowing this ${toolName} call: ${fieldChanges(others, before, after)}.`);
  }
  return lines.join('\n');
}

function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return names.filter((name) => !isDeepStrictEqual(before[name], after[name]));
}

/** `cwd: "." → "src"; timeout_ms: 120000 → 5000`: a JSON diff of the fields, in a line. */
function fieldChanges(names: string[], before: Record<string, unknown>, after: Record<string, unknown>): string {
  const shown = (value: unknown) => (value === undefined ? '(not set)' : clip(JSON.stringify(value)));
  return names.map((name) => `${name}: ${shown(before[name])} → ${shown(after[name])}`).join('; ');
}

/**
 * `label: \`text\`.` for a short single line; otherwise the label, then the text in a fenced block
 * whose fence the text cannot close.
 */
function labelled(label: string, text: string, language = ''): string {
  const clipped = clip(text);
  if (!clipped.includes('\n') && !clipped.includes('`') && clipped.length <= 200) return `${label}: \`${clipped}\`.`;
  const longestRun = Math.max(0, ...(clipped.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${label}:\n${fence}${language}\n${clipped.replace(/\n$/, '')}\n${fence}`;
}

/** Sentences on one line, except that a fenced block always ends its line. */
function joinSentences(parts: string[]): string {
  return parts.reduce((text, part) => (text === '' ? part : `${text}${text.endsWith('```') ? '\n' : ' '}${part}`), '');
}

function clip(text: string): string {
  if (text.length <= MAX_QUOTED_CHARS) return text;
  return `${text.slice(0, MAX_QUOTED_CHARS)}\n[… ${(text.length - MAX_QUOTED_CHARS).toLocaleString('en-US')} more characters not shown; read the file or the log to see all of it]`;
}
