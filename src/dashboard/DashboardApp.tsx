// First: zod must not probe for eval under our Content-Security-Policy (see the module).
import './lib/zod-csp';
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $isMobile, $mobileSidebarOpen, $sidebarOpen, initDashboardUi } from '../stores/dashboard';
import { DashboardHeader } from './DashboardHeader';
import { RouteView } from './RouteView';
import { startRouter } from './router';
import { $dashUser, loadSession } from './session';
import { SignInPrompt } from './SignInPrompt';
import { Sidebar } from './Sidebar';
import { Spinner } from './ui/primitives';
import './dashboard.css';
// The campaign editor is a lazy chunk here; its styles come with the page (Astro inlines every
// stylesheet, so a lazy chunk's own CSS file would not exist).
import '../styles/editor.css';

/** Client-only dashboard (rendered with client:only="react"): routes on location.pathname. */
export default function DashboardApp() {
  const user = useStore($dashUser);
  const open = useStore($sidebarOpen);
  const mobile = useStore($isMobile);
  const drawerOpen = useStore($mobileSidebarOpen);

  useEffect(() => {
    // /dashboard itself shows the overview; keep one canonical address for the menu.
    if (/^\/dashboard\/?$/.test(window.location.pathname))
      window.history.replaceState(window.history.state, '', '/dashboard/overview');
    const stopUi = initDashboardUi();
    const stopRouter = startRouter();
    void loadSession();
    return () => {
      stopUi();
      stopRouter();
    };
  }, []);

  return (
    <div className="dash-shell" data-sidebar={mobile ? 'mobile' : open ? 'expanded' : 'collapsed'}>
      <a className="skip-link" href="#dash-main">
        Skip to content
      </a>
      <Sidebar />
      {/* The open phone drawer is modal: Tab stays in the menu rather than wandering under the scrim. */}
      <div className="dash-body" {...(mobile && drawerOpen ? { inert: true } : {})}>
        <DashboardHeader />
        {user === undefined ? (
          <main id="dash-main" className="dash-main">
            <Spinner />
          </main>
        ) : user === null ? (
          <SignInPrompt />
        ) : (
          <RouteView />
        )}
      </div>
    </div>
  );
}
