import { useApp } from '../stores/useApp';
import { selectCurrentApproval } from '../stores/selectors';
import { IconButton } from '../ui/IconButton';

/** The folded sidebar's stand-in: the way back, and the inbox's count, so nothing waits unseen. */
export function SidebarRail() {
  const toggleSidebar = useApp((state) => state.toggleSidebar);
  const openApproval = useApp((state) => state.openApproval);
  const waiting = useApp((state) => state.inbox.length);
  const oldest = useApp((state) => selectCurrentApproval(state)?.entry);

  return (
    <nav className="pane-rail sidebar-rail" aria-label="Sidebar (folded)" data-testid="sidebar-rail">
      <IconButton
        icon="panelLeft"
        aria-expanded="false"
        data-testid="sidebar-open"
        onClick={toggleSidebar}
        label="Show the sidebar"
        title="Show the sidebar (Ctrl+B)"
      />
      {waiting > 0 && (
        <IconButton
          icon="inbox"
          className="rail-inbox"
          data-testid="rail-inbox"
          disabled={!oldest}
          onClick={() => oldest && openApproval(oldest, { reach: true })}
          label={`Open the oldest request waiting for you (${waiting} waiting)`}
          title="Open the oldest request waiting for you"
        >
          <span className="badge count">{waiting}</span>
        </IconButton>
      )}
    </nav>
  );
}
