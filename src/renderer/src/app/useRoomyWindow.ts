import { useEffect } from 'react';
import { useApp } from '../stores/useApp';

/**
 * From this window width the review column fits beside the sidebar and the conversation at its
 * default size (40% of the workspace) with the conversation keeping about 560 px, room for a tool
 * card's name and facts on one line. Below it the column opens only when the person asks.
 */
const ROOMY_WINDOW = '(min-width: 1200px)';

/** Tells the store whether the window is roomy, and again whenever that changes. */
export function useRoomyWindow(): void {
  const setRoomyWindow = useApp((state) => state.setRoomyWindow);
  useEffect(() => {
    const media = window.matchMedia(ROOMY_WINDOW);
    const handleChange = () => setRoomyWindow(media.matches);
    handleChange();
    media.addEventListener('change', handleChange);
    return () => media.removeEventListener('change', handleChange);
  }, [setRoomyWindow]);
}
