import { useCallback, useEffect, useState } from 'react';
import type { SandboxFence, SandboxUnavailableChoice, SandboxView } from '../../../../shared/sandbox';
import { getApi } from '../../lib/api';
import { errorMessage } from '../../lib/errorMessage';

export type SandboxChange = { fence: SandboxFence } | { unavailable: SandboxUnavailableChoice };

/**
 * One project's sandbox as the settings screen shows it, and its edits. Kept here rather than in the
 * app store: nothing else in the app reads it.
 */
export function useSandboxView(projectId: string | undefined) {
  const [view, setView] = useState<SandboxView | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);

  const load = useCallback(async () => {
    if (!projectId) return;
    setError(undefined);
    try {
      setView(await getApi().request('sandbox:get', { projectId }));
    } catch (caught) {
      setError(`Could not load the sandbox settings: ${errorMessage(caught)}`);
    }
  }, [projectId]);

  useEffect(() => {
    setView(undefined);
    void load();
  }, [load]);

  const change = useCallback(
    async (what: SandboxChange): Promise<boolean> => {
      if (!projectId) return false;
      setSaving(true);
      setError(undefined);
      try {
        setView(await getApi().request('sandbox:update', { projectId, ...what }));
        return true;
      } catch (caught) {
        setError(`Could not save the sandbox settings: ${errorMessage(caught)}`);
        return false;
      } finally {
        setSaving(false);
      }
    },
    [projectId],
  );

  return { view, error, saving, change, reload: load };
}
