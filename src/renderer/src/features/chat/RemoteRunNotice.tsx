import type { RemoteRunInfo } from '../../../../shared/remoteRuns';
import { getApi } from '../../lib/api';
import { errorMessage } from '../../lib/errorMessage';
import { useApp } from '../../stores/useApp';
import '../sessions/remoteRuns.css';

/**
 * In place of the task box for a remote run: where it runs, whether it is connected, and Stop. Its
 * requests are answered here as any session's; nothing else of it can be done from the desk.
 */
export function RemoteRunNotice({ sessionId, remote }: { sessionId: string; remote: RemoteRunInfo }) {
  const status = useApp((state) => state.logs[sessionId]?.state.status ?? state.sessions[sessionId]?.status);
  const notify = useApp((state) => state.notify);
  const running = status === 'working' || status === 'waiting';

  async function handleStop() {
    try {
      await getApi().request('session:stop', { sessionId });
    } catch (error) {
      notify(`Could not stop the run on ${remote.runner}: ${errorMessage(error)}`);
    }
  }

  return (
    <div className="remote-run-notice" data-testid="remote-run-notice" role="note">
      <p>
        Runs on <strong>{remote.runner}</strong> ({remote.machine}, {remote.repository}
        {remote.branch ? ` @ ${remote.branch}` : ''}), {remote.connected ? 'connected' : 'not connected now'}. Its requests are answered
        here; it waits up to {Math.round(remote.waitMs / 60_000) || '<1'} min for each, then denies.
      </p>
      {running && remote.connected && (
        <button type="button" data-testid="remote-run-stop" onClick={() => void handleStop()}>
          Stop the run
        </button>
      )}
    </div>
  );
}
