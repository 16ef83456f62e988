import { useEffect, useRef, useState, type Ref } from 'react';
import { useApp, useAppStore } from '../../stores/useApp';
import { Icon } from '../../ui/Icon';
import { selectTerminalShown } from '../../stores/paneDefaults';

/** xterm.js and what drives it, loaded when a terminal first opens (see terminalView.ts). */
const loadTerminalView = () => import('./terminalView');

/**
 * The agent's commands and their output, live: a "$ command" line per command and the PTY's raw
 * bytes. The terminal is written from a store subscription, not through React renders. It only
 * shows (the person types nothing into it), so Tab and Shift+Tab move on as everywhere else and
 * Esc leaves it: keyboard focus is never caught in it.
 */
export function TerminalPanel({ sessionId, ref }: { sessionId: string; ref?: Ref<HTMLElement> }) {
  const open = useApp((state) => selectTerminalShown(state, sessionId));
  const toggleTerminal = useApp((state) => state.toggleTerminal);
  const empty = useApp((state) => (state.terminals[sessionId]?.blocks.length ?? 0) === 0);
  const store = useAppStore();
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    const element = host.current;
    if (!open || !element) return undefined;
    let closed = false;
    let unmount: (() => void) | undefined;
    loadTerminalView()
      .then(({ mountTerminal }) => {
        if (!closed) unmount = mountTerminal(element, store, sessionId);
      })
      .catch((error: unknown) => {
        // A page left open across an upgrade asks for a chunk the server no longer has: a reload fetches the new one.
        if (!closed) setFailed(`${error instanceof Error ? error.message : String(error)}. Reload the page to try again.`);
      });
    return () => {
      closed = true;
      unmount?.();
    };
  }, [open, sessionId, store]);

  return (
    <section ref={ref} className={`terminal-panel${open ? ' open' : ''}`} aria-label="Terminal" data-testid="terminal-panel">
      <button
        type="button"
        className="panel-header ghost"
        aria-expanded={open}
        onClick={() => toggleTerminal(open)}
        title="Show or hide the terminal (Ctrl+`)"
      >
        <Icon name="terminal" />
        <span className="panel-title">Terminal</span>
        <span className="faint">{empty ? 'no commands yet' : "the agent's commands, live"}</span>
      </button>
      {open && (
        <div className="terminal-body">
          {failed ? (
            <p className="panel-note error-text">The terminal could not start: {failed}</p>
          ) : (
            <div className="terminal-host" ref={host} data-testid="terminal" role="log" aria-label="Command output" />
          )}
          {empty && !failed && <div className="terminal-empty faint">No commands yet.</div>}
        </div>
      )}
    </section>
  );
}
