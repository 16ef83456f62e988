import { useMemo } from 'react';
import type { Json } from '../../../../shared/json';
import type { ToolCallView } from '../../../../shared/session';
import { toolTraits } from '../../../../shared/toolCatalog';
import { argsObject, stringArg } from '../../lib/toolArgs';
import { useApp } from '../../stores/useApp';
import { diffFromPatch, diffNewFile, linesLabel, type ChangeDiff } from '../permission/changeDiff';
import { DiffHunks } from '../permission/DiffHunks';
import { ToolOutput } from './ToolOutput';

/** The tools whose card shows the change they made as a coloured diff: those that write a file (the tool catalog's write family). */
export function showsChange(tool: string): boolean {
  return toolTraits(tool)?.rules === 'write';
}

/**
 * What an edit or a write did, on its card: the tool's message, then its diff in colour with line
 * numbers (a created file: every line added). Output with no diff in it is shown as text.
 */
export function ChangeOutput({ sessionId, call, args }: { sessionId: string; call: ToolCallView; args: Record<string, Json> | null }) {
  const output = call.output ?? '';
  // What ran is the person's version when they edited the call before allowing it.
  const edited = useApp((state) =>
    call.approvalId ? state.logs[sessionId]?.state.approvals[call.approvalId]?.decision?.editedArgs : undefined,
  );
  const ran = useMemo(() => (edited !== undefined ? argsObject(edited) : args), [edited, args]);
  const shown = useMemo(() => changeIn(call, ran, output), [call, ran, output]);
  if (!shown) return <ToolOutput text={output} />;
  const path = stringArg(ran, 'path');
  return (
    <div className="tool-output change-output" data-testid="tool-card-output">
      {shown.message && <pre className="code-block">{shown.message}</pre>}
      {path && shown.diff.lines && (
        <p className="diff-position mono" data-testid="tool-card-diff-position">
          {path}, {linesLabel(shown.diff.lines)} (+{shown.diff.additions} −{shown.diff.deletions})
        </p>
      )}
      <DiffHunks hunks={shown.diff.hunks} testId="tool-card-diff" label={`Change to ${path ?? 'the file'}`} />
      {shown.cut && <p className="faint tool-note">{shown.cut}</p>}
    </div>
  );
}

function changeIn(
  call: ToolCallView,
  args: Record<string, Json> | null,
  output: string,
): { message: string; diff: ChangeDiff; cut?: string } | undefined {
  if (call.status !== 'ok') return undefined;
  // The last patch is the tool's own: a note about the person's edit, before it, may quote one too.
  const start = [...output.matchAll(/^--- .*\n\+\+\+ .*\n@@ /gm)].at(-1)?.index ?? -1;
  if (start >= 0) {
    const lines = output.slice(start).split('\n');
    // The tool cuts a long diff and says so on a line of its own, after the hunks.
    const end = lines.findIndex((line, index) => index > 1 && !/^([ +\-\\@]|$)/.test(line));
    const patch = (end === -1 ? lines : lines.slice(0, end)).join('\n');
    const diff = diffFromPatch(patch);
    if (diff.hunks.length === 0) return undefined;
    return { message: output.slice(0, start).trimEnd(), diff, ...(end === -1 ? {} : { cut: lines.slice(end).join('\n').trim() }) };
  }
  const metadata = call.metadata;
  const created = metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) && metadata.created === true;
  const content = stringArg(args, 'content');
  // A whole-file write that created the file: every line of its content is added.
  if (toolTraits(call.name)?.writes === 'whole file' && created && content !== undefined && content !== '') {
    return { message: output, diff: diffNewFile(content) };
  }
  return undefined;
}
