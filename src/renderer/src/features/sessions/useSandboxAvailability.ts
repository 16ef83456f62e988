import { useEffect, useState } from 'react';
import { getApi } from '../../lib/api';

/** Whether commands can be sandboxed here, and if not why; undefined while it is being asked. */
export type SandboxAvailabilityView = { available: true } | { available: false; reason: string };

/**
 * Whether a project's commands would run in the sandbox, from `sandbox:get` (the host's answer, the
 * same one its runs get). Auto mode works as ask where they would not.
 */
export function useSandboxAvailability(projectId: string | undefined): SandboxAvailabilityView | undefined {
  const [availability, setAvailability] = useState<SandboxAvailabilityView | undefined>();
  useEffect(() => {
    if (!projectId) return;
    let live = true;
    setAvailability(undefined);
    getApi()
      .request('sandbox:get', { projectId })
      .then(
        (view) =>
          live &&
          setAvailability(
            view.available ? { available: true } : { available: false, reason: view.reason ?? 'no sandbox is available here' },
          ),
        // Unknown: the choices are still offered, without the note.
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [projectId]);
  return availability;
}
