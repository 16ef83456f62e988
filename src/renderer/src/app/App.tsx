import { useRef, type CSSProperties } from 'react';
import { ConnectionBanner } from './ConnectionBanner';
import { UpdateBanner } from './UpdateBanner';
import { Toasts } from './Toasts';
import { MainArea } from './MainArea';
import { Splitter } from '../ui/Splitter';
import { SidebarRail } from './SidebarRail';
import { ShortcutsSheet } from './ShortcutsSheet';
import { paneBounds } from '../ui/paneSizes';
import { useWindowTitle } from './useWindowTitle';
import { useSystemNotifications } from './useSystemNotifications';
import { useGlobalShortcuts } from './useGlobalShortcuts';
import { useRoomyWindow } from './useRoomyWindow';
import { useApp } from '../stores/useApp';
import { Sidebar } from '../features/sessions/Sidebar';
import { RequestAnnouncer } from '../features/permission/RequestAnnouncer';
import { usePreloadDiffViewer } from '../features/diff/usePreloadDiffViewer';

/**
 * The window: sidebar on the left, the selected session (or settings) beside it. A permission request
 * is docked in its own session's view and blocks nothing; the inbox lists every one waiting.
 */
export function App() {
  useWindowTitle();
  useSystemNotifications();
  useGlobalShortcuts();
  useRoomyWindow();
  usePreloadDiffViewer();
  const sidebarWidth = useApp((state) => state.layout.sidebarWidth);
  const sidebarFolded = useApp((state) => state.layout.sidebarCollapsed ?? false);
  const setLayout = useApp((state) => state.setLayout);
  const sidebar = useRef<HTMLElement>(null);
  const style = (sidebarWidth ? { '--sidebar-width': `${sidebarWidth}px` } : {}) as CSSProperties;

  return (
    <div className="app" data-testid="app">
      <ConnectionBanner />
      <UpdateBanner />
      <div className={`app-body${sidebarFolded ? ' sidebar-folded' : ''}`} style={style}>
        {sidebarFolded ? (
          <SidebarRail />
        ) : (
          // The bar that resizes the sidebar belongs to it, inside its landmark, drawn over its edge.
          <Sidebar ref={sidebar}>
            <Splitter
              orientation="vertical"
              label="Resize the sidebar"
              direction={1}
              testId="sidebar-splitter"
              measure={() => sidebar.current?.getBoundingClientRect().width ?? 0}
              bounds={() => paneBounds.sidebar}
              onResize={(width) => setLayout({ sidebarWidth: width })}
              onReset={() => setLayout({ sidebarWidth: undefined })}
            />
          </Sidebar>
        )}
        <MainArea />
      </div>
      <Toasts />
      <RequestAnnouncer />
      <ShortcutsSheet />
    </div>
  );
}
