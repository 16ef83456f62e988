import { useApp } from '../stores/useApp';

/**
 * Says when a downloaded update is ready. Tether never restarts by itself: the person restarts when
 * it suits them (refused, with the reason, while a session works or waits for them), or the update is
 * installed when they quit.
 */
export function UpdateBanner() {
  const update = useApp((state) => state.update);
  const restarting = useApp((state) => state.restartingToUpdate);
  const restart = useApp((state) => state.restartToUpdate);
  if (update.state !== 'ready') return null;
  return (
    <div className="update-banner" role="status" data-testid="update-banner">
      <span>
        Tether {update.version} is ready.{' '}
        {update.blockedBy
          ? `It installs when you quit, or restart once no session needs Tether: ${update.blockedBy}.`
          : 'It installs when you quit, or restart now.'}
      </span>
      <button type="button" onClick={() => void restart()} disabled={restarting || update.blockedBy !== undefined} title={update.blockedBy}>
        Restart to update
      </button>
    </div>
  );
}
