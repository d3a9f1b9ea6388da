import { useStore } from '@nanostores/react';
import { useEffect, useRef } from 'react';
import { $isMobile, $mobileSidebarOpen, $sidebarOpen, setMobileSidebarOpen } from '../stores/dashboard';
import { buildMenu, isActiveLink } from './lib/menu';
import { $location } from './router';
import { $dashUser } from './session';
import { Icon } from './ui/icons';

export function Sidebar() {
  const user = useStore($dashUser);
  const open = useStore($sidebarOpen);
  const mobile = useStore($isMobile);
  const drawerOpen = useStore($mobileSidebarOpen);
  const { pathname } = useStore($location);
  const navRef = useRef<HTMLElement>(null);
  const collapsed = !mobile && !open;
  const groups = user ? buildMenu(user.type) : [];
  const hrefs = groups.flatMap((g) => g.items.map((i) => i.href));

  // Close the phone drawer after navigating and on Escape; move focus into it when it opens and back
  // to its button when Escape closes it.
  useEffect(() => {
    if (mobile) setMobileSidebarOpen(false);
  }, [pathname, mobile]);
  useEffect(() => {
    if (!(mobile && drawerOpen)) return;
    navRef.current?.querySelector<HTMLElement>('a,button')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMobileSidebarOpen(false);
      // Back to the button that opened it, once the page under the drawer is no longer inert.
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-controls="dash-sidebar"]')?.focus());
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [mobile, drawerOpen]);

  const state = mobile ? (drawerOpen ? 'open' : 'closed') : open ? 'expanded' : 'collapsed';
  return (
    <>
      {mobile && drawerOpen ? (
        <div className="dash-scrim" onClick={() => setMobileSidebarOpen(false)} aria-hidden="true" />
      ) : null}
      <aside
        ref={navRef}
        id="dash-sidebar"
        className="dash-sidebar"
        data-state={state}
        aria-label="Dashboard"
        {...(mobile && !drawerOpen ? { inert: true, 'aria-hidden': true } : {})}
      >
        <a className="dash-brand" href="/" title="UK NFP home">
          <svg width="26" height="26" viewBox="0 0 32 32" aria-hidden="true">
            <path fill="currentColor" d="M16 29s-11-6.6-11-15A6 6 0 0 1 16 9.5 6 6 0 0 1 27 14c0 8.4-11 15-11 15z" />
          </svg>
          <span className="dash-label">UK NFP</span>
        </a>
        <nav className="dash-nav" aria-label="Dashboard menu">
          {/* Spec: before login the menu shows a single Loading item (also while the session is read). */}
          {!user ? (
            <ul>
              <li>
                <span className="dash-nav-link" aria-busy={user === undefined ? true : undefined}>
                  <Icon name="loader" className="dash-spin" />
                  <span className="dash-label">Loading</span>
                </span>
              </li>
            </ul>
          ) : null}
          {groups.map((group) => (
            <div key={group.label} className="dash-nav-group" role="group" aria-labelledby={`nav-${group.label}`}>
              <p className="dash-nav-heading" id={`nav-${group.label}`}>
                <span className="dash-label">{group.label}</span>
              </p>
              <ul>
                {group.items.map((item) => {
                  const active = isActiveLink(item.href, pathname, hrefs);
                  return (
                    <li key={`${group.label}-${item.label}`}>
                      <a
                        className="dash-nav-link"
                        href={item.href}
                        aria-current={active ? 'page' : undefined}
                        title={collapsed ? item.label : undefined}
                      >
                        <Icon name={item.icon} />
                        <span className="dash-label">{item.label}</span>
                      </a>
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </nav>
      </aside>
    </>
  );
}
