import { ConnectionBanner } from './ConnectionBanner';
import { UpdateBanner } from './UpdateBanner';
import { Toasts } from './Toasts';
import { MainArea } from './MainArea';
import { useWindowTitle } from './useWindowTitle';
import { useApprovalNotifications } from './useApprovalNotifications';
import { useGlobalShortcuts } from './useGlobalShortcuts';
import { Sidebar } from '../features/sessions/Sidebar';
import { PermissionDialog } from '../features/permission/PermissionDialog';

/**
 * The window: sidebar on the left, the selected session (or settings) beside it, a permission
 * request over it. A request blocks nothing: the rest of the window stays in reach while it waits.
 */
export function App() {
  useWindowTitle();
  useApprovalNotifications();
  useGlobalShortcuts();
  return (
    <div className="app" data-testid="app">
      <ConnectionBanner />
      <UpdateBanner />
      <div className="app-body">
        <Sidebar />
        <MainArea />
      </div>
      <Toasts />
      <PermissionDialog />
    </div>
  );
}
