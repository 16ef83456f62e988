import { ConnectionBanner } from './ConnectionBanner';
import { UpdateBanner } from './UpdateBanner';
import { Toasts } from './Toasts';
import { MainArea } from './MainArea';
import { useWindowTitle } from './useWindowTitle';
import { useApprovalNotifications } from './useApprovalNotifications';
import { useGlobalShortcuts } from './useGlobalShortcuts';
import { Sidebar } from '../features/sessions/Sidebar';
import { PermissionDialog } from '../features/permission/PermissionDialog';
import { useApp } from '../stores/useApp';
import { selectCurrentApproval } from '../stores/selectors';

/** The window: sidebar on the left, the selected session (or settings) beside it, the dialog on top. */
export function App() {
  useWindowTitle();
  useApprovalNotifications();
  useGlobalShortcuts();
  // While the dialog is up, the rest of the window is out of reach: not focusable, not clickable.
  const modal = useApp((state) => selectCurrentApproval(state) !== null);
  return (
    <div className="app" data-testid="app">
      <ConnectionBanner />
      <UpdateBanner />
      <div className="app-body" inert={modal}>
        <Sidebar />
        <MainArea />
      </div>
      <Toasts />
      <PermissionDialog />
    </div>
  );
}
