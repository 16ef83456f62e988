import { useState } from 'react';
import type { SandboxTempView } from '../../../../shared/sandbox';
import { getApi } from '../../lib/api';
import { errorMessage } from '../../lib/errorMessage';
import { CopyButton } from './CopyButton';
import './context.css';

/**
 * The session's private /tmp: where, on this machine, the folder its sandboxed commands see as /tmp
 * is, to look at what a command left there (a build, a log, an archive). Asked for when opened; the
 * desktop app can open it in the file manager, the browser shows the path to copy.
 */
export function SandboxTempChip({ sessionId }: { sessionId: string }) {
  const [view, setView] = useState<SandboxTempView | undefined>();
  const [note, setNote] = useState<string | undefined>();

  async function handleToggle(open: boolean) {
    if (!open) return;
    setNote(undefined);
    try {
      setView(await getApi().request('session:sandboxTemp', { sessionId }));
    } catch (caught) {
      setNote(`Could not find the session’s /tmp: ${errorMessage(caught)}`);
    }
  }

  async function handleOpen() {
    try {
      const { opened } = await getApi().request('session:openSandboxTemp', { sessionId });
      setNote(opened ? undefined : 'This window cannot open folders on the machine Tether runs on: copy the path instead.');
    } catch (caught) {
      setNote(`Could not open it: ${errorMessage(caught)}`);
    }
  }

  return (
    <details
      className="instructions-chip sandbox-temp-chip"
      data-testid="sandbox-temp"
      onToggle={(event) => void handleToggle(event.currentTarget.open)}
    >
      <summary className="badge instructions" title="This session’s own /tmp, where its sandboxed commands put scratch files">
        /tmp
      </summary>
      <div className="popover" role="note">
        <p>
          Inside the sandbox, <span className="mono">/tmp</span> (and <span className="mono">$TMPDIR</span>) is this session’s own folder,
          kept between its commands and removed with the session. On this machine it is:
        </p>
        {view && (
          <>
            <p className="mono sandbox-temp-path" data-testid="sandbox-temp-path">
              {view.path}
            </p>
            <div className="field-row">
              <CopyButton text={view.path} label="Copy path" />
              <button
                type="button"
                className="ghost"
                data-testid="sandbox-temp-open"
                disabled={!view.exists}
                onClick={() => void handleOpen()}
              >
                Open folder
              </button>
            </div>
            {!view.exists && <p className="faint">Nothing yet: the session’s first sandboxed command makes it.</p>}
            {!view.sandboxed && <p className="faint">No sandbox is available here, so this session’s commands use the real /tmp.</p>}
          </>
        )}
        {note && (
          <p className="faint" role="status" data-testid="sandbox-temp-note">
            {note}
          </p>
        )}
      </div>
    </details>
  );
}
