import { useMemo, useState } from 'react';
import { actedUnasked, type ToolCallStatus, type ToolCallView } from '../../../../shared/session';
import { toolTraits } from '../../../../shared/toolCatalog';
import { useApp } from '../../stores/useApp';
import { argsObject, callSubject, stringArg } from '../../lib/toolArgs';
import { formatDuration } from '../../lib/format';
import { useNow } from '../../lib/useNow';
import { FilePathLink } from './FilePathLink';
import { ToolOutput } from './ToolOutput';
import { ChangeOutput, showsChange } from './ChangeOutput';

const statusLabels: Record<ToolCallStatus, string> = {
  pending: 'pending',
  awaiting_approval: 'waiting for approval',
  running: 'running',
  ok: 'done',
  error: 'error',
  denied: 'denied',
  unknown: 'outcome unknown',
  aborted: 'aborted',
};

/** The tools that act on one file named by their `path` (the tool catalog's): their card links to that file's diff. */
function namesOneFile(tool: string): boolean {
  const folder = toolTraits(tool)?.folder;
  return folder?.argument === 'path' && folder.names === 'file';
}

/** Where a command ran, as its result's metadata says; a command that did not run says nothing. */
const sandboxLabels: Record<string, { text: string; title: string }> = {
  sandboxed: {
    text: 'ran in the sandbox',
    title: 'It ran inside the sandbox fence: writes only in the workspace, secrets unreadable, network only to allowed hosts.',
  },
  outside: {
    text: 'ran outside the sandbox',
    title: 'It hit the fence, and you allowed running it again outside the sandbox, with your full access.',
  },
  unavailable: { text: 'ran unsandboxed', title: 'No sandbox was available, and you allowed running it with your full access.' },
  off: {
    text: 'ran with the sandbox off',
    title: 'The sandbox was turned off for that run (tether run --no-sandbox): it had your full access.',
  },
};

function sandboxOf(call: ToolCallView): string | undefined {
  const metadata = call.metadata;
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata) || metadata.ran === false) return undefined;
  return typeof metadata.sandbox === 'string' && metadata.sandbox in sandboxLabels ? metadata.sandbox : undefined;
}

/** How far the call went on its own: where it ran (commands), and whether it ran with no question asked. */
function Provenance({ call }: { call: ToolCallView }) {
  const sandbox = sandboxOf(call);
  const unasked = actedUnasked(call);
  if (!sandbox && !unasked) return null;
  return (
    <span className="tool-provenance">
      {sandbox && (
        <span
          className={`badge tool-tag tool-tag-${sandbox}`}
          data-testid="tool-card-sandbox"
          data-sandbox={sandbox}
          title={sandboxLabels[sandbox]!.title}
        >
          {sandboxLabels[sandbox]!.text}
        </span>
      )}
      {unasked && (
        <span
          className="badge tool-tag tool-tag-unasked"
          data-testid="tool-card-unasked"
          title="Nobody was asked: the permission mode or a rule let it run on its own."
        >
          unasked
        </span>
      )}
    </span>
  );
}

/** A tool call: what it acts on, where it stands, how long it took, and (opened) its whole output. */
export function ToolCard({ sessionId, callId }: { sessionId: string; callId: string }) {
  const call = useApp((state) => state.logs[sessionId]?.state.toolCalls[callId]);
  const startedAt = useApp((state) => state.logs[sessionId]?.startedAt[callId]);
  const [expanded, setExpanded] = useState<boolean | null>(null);
  const running = call?.status === 'running';
  const now = useNow(1000, running && startedAt !== undefined);
  const args = useMemo(() => argsObject(call?.arguments), [call?.arguments]);

  if (!call) return null;
  const open = expanded ?? call.status === 'error';
  const subject = callSubject(args);
  const filePath = namesOneFile(call.name) ? stringArg(args, 'path') : undefined;
  const duration =
    call.durationMs !== undefined
      ? formatDuration(call.durationMs)
      : running && startedAt !== undefined
        ? formatDuration(Math.max(0, now - startedAt))
        : '';
  const bodyId = `tool-body-${callId}`;

  return (
    <article
      className={`tool-card tool-${call.status}`}
      data-testid="tool-card"
      data-call-id={callId}
      data-status={call.status}
      data-tool={call.name}
    >
      <div className="tool-card-head">
        <button
          type="button"
          className="tool-card-header"
          aria-expanded={open}
          aria-controls={bodyId}
          data-testid="tool-card-toggle"
          onClick={() => setExpanded(!open)}
        >
          <span className={`tool-status-dot tool-${call.status}`} aria-hidden="true" />
          <span className="tool-name mono">{call.name}</span>
          <span className="tool-title" data-testid="tool-card-title">
            {call.title ?? subject ?? ''}
          </span>
          <Provenance call={call} />
          <span className="tool-status" data-testid="tool-card-status">
            {statusLabels[call.status]}
          </span>
          {duration && (
            <span
              className="tool-duration faint"
              data-testid="tool-card-duration"
              title="How long the call took, without the time it waited for you"
            >
              {duration}
            </span>
          )}
          {call.waitedMs !== undefined && (
            <span className="tool-duration faint" data-testid="tool-card-waited" title="How long it waited for your answer">
              waited {formatDuration(call.waitedMs)}
            </span>
          )}
        </button>
        {filePath && <FilePathLink text={filePath} sessionId={sessionId} className="tool-card-file mono" />}
      </div>
      {call.quarantined?.length ? (
        <ul className="tool-quarantined" data-testid="tool-card-quarantined" aria-label="Git repositories made harmless">
          {call.quarantined.map((repository, index) => (
            <li key={index}>
              <strong>{repository.failed ? 'Not made harmless: ' : 'Made harmless: '}</strong>
              git repository <span className="mono">{repository.path}</span> ({repository.found}) could run {repository.programs.join('; ')}
              {repository.moved.map(({ from, to }) => (
                <div key={from} className="mono faint">
                  moved {from} → {to}
                </div>
              ))}
              {repository.failed && <div>{repository.failed}. Look at it before running git in the workspace.</div>}
            </li>
          ))}
        </ul>
      ) : null}
      {call.hookProblems?.length ? (
        <ul className="tool-hook-problems" data-testid="tool-card-hook-problems" aria-label="Hooks that failed">
          {call.hookProblems.map((problem, index) => (
            <li key={index}>{problem}</li>
          ))}
        </ul>
      ) : null}
      {open && (
        <div className="tool-card-body" id={bodyId}>
          {subject && call.title && <div className="tool-subject mono">{subject}</div>}
          <details className="tool-args">
            <summary>Arguments</summary>
            <pre className="code-block">{args ? JSON.stringify(args, null, 2) : call.arguments}</pre>
          </details>
          {call.output !== undefined && showsChange(call.name) ? (
            <ChangeOutput sessionId={sessionId} call={call} args={args} />
          ) : call.output !== undefined ? (
            <ToolOutput text={call.output} />
          ) : (
            <p className="faint tool-note">{running ? 'Running… the terminal below shows its output live.' : 'No output yet.'}</p>
          )}
        </div>
      )}
    </article>
  );
}
