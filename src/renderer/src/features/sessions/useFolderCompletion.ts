import { useEffect, useRef, useState } from 'react';
import type { FolderMatches } from '../../../../shared/contract';
import { getApi } from '../../lib/api';

const ASK_AFTER_MS = 80;

/**
 * Folder completion for a typed path: main lists the sub-folders of what is typed up to the last
 * slash whose names start with the rest. `active` is -1 until the person moves into the list, so
 * Enter still opens what was typed.
 */
export function useFolderCompletion(typed: string) {
  const [result, setResult] = useState<{ typed: string; matches: FolderMatches } | null>(null);
  const [active, setActive] = useState(-1);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const ticket = useRef(0);

  useEffect(() => {
    const mine = ++ticket.current;
    setActive(-1);
    if (!typed) {
      setResult(null);
      return;
    }
    const timer = setTimeout(() => {
      getApi()
        .request('folders:complete', { typed })
        .then(
          (matches) => {
            if (mine === ticket.current) setResult({ typed, matches });
          },
          () => {
            if (mine === ticket.current) setResult(null);
          },
        );
    }, ASK_AFTER_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  // A list for what was typed before stays until the new one comes, unless it was dismissed.
  const folders = result && dismissed !== typed ? result.matches.folders.filter((folder) => folder !== typed) : [];
  return {
    folders,
    truncated: result?.matches.truncated ?? false,
    open: folders.length > 0,
    active: Math.min(active, folders.length - 1),
    move(step: 1 | -1) {
      const count = folders.length;
      setActive((current) => (step === 1 ? (current + 1 >= count ? 0 : current + 1) : current - 1 < 0 ? count - 1 : current - 1));
    },
    setActive,
    dismiss() {
      setDismissed(typed);
    },
  };
}
