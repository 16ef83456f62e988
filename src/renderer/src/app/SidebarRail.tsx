import { useApp } from '../stores/useApp';
import { selectCurrentApproval } from '../stores/selectors';
import { Icon } from '../ui/Icon';

/** The folded sidebar's stand-in: the way back, and the inbox's count, so nothing waits unseen. */
export function SidebarRail() {
  const toggleSidebar = useApp((state) => state.toggleSidebar);
  const openApproval = useApp((state) => state.openApproval);
  const waiting = useApp((state) => state.inbox.length);
  const oldest = useApp((state) => selectCurrentApproval(state)?.entry);

  return (
    <nav className="pane-rail sidebar-rail" aria-label="Sidebar (folded)" data-testid="sidebar-rail">
      <button
        type="button"
        className="ghost"
        aria-expanded="false"
        title="Show the sidebar (Ctrl+B)"
        data-testid="sidebar-open"
        onClick={toggleSidebar}
      >
        <Icon name="panelLeft" />
      </button>
      {waiting > 0 && (
        <button
          type="button"
          className="ghost rail-inbox"
          title="Open the oldest request waiting for you"
          data-testid="rail-inbox"
          disabled={!oldest}
          onClick={() => oldest && openApproval(oldest, { reach: true })}
        >
          <Icon name="inbox" />
          <span className="badge count">{waiting}</span>
        </button>
      )}
    </nav>
  );
}
