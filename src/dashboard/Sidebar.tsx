import { useStore } from '@nanostores/react';
import { useEffect, useRef } from 'react';
import { $isMobile, $mobileSidebarOpen, $sidebarOpen, setMobileSidebarOpen } from '../stores/dashboard';
import { buildMenu, isActiveLink, menuPathOf } from './lib/menu';
import { $location } from './router';
import { $dashUser } from './session';
import { Icon } from './ui/icons';

export function Sidebar() {
  const user = useStore($dashUser);
  const open = useStore($sidebarOpen);
  const mobile = useStore($isMobile);
  const drawerOpen = useStore($mobileSidebarOpen);
  const { pathname, search, visit } = useStore($location);
  const navRef = useRef<HTMLDivElement>(null);
  const collapsed = !mobile && !open;
  const groups = user ? buildMenu(user.type) : [];
  const hrefs = groups.flatMap((g) => g.items.map((i) => i.href));

  // The phone drawer is a modal dialog: it closes after navigating and on Escape; the focus moves
  // into it when it opens and Tab cycles inside it (the page under it is inert).
  useEffect(() => {
    if (mobile) setMobileSidebarOpen(false);
  }, [visit, mobile]);
  useEffect(() => {
    if (!(mobile && drawerOpen)) return;
    navRef.current?.querySelector<HTMLElement>('a,button')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMobileSidebarOpen(false);
      if (e.key !== 'Tab' || !navRef.current) return;
      // Past the last link (or before the first) the browser would leave the page, or land on the skip link.
      const items = [...navRef.current.querySelectorAll<HTMLElement>('a[href],button:not([disabled])')];
      const [first, last] = [items[0], items.at(-1)];
      const active = document.activeElement;
      let wrapTo: HTMLElement | undefined;
      if (!navRef.current.contains(active)) wrapTo = e.shiftKey ? last : first;
      else if (e.shiftKey && active === first) wrapTo = last;
      else if (!e.shiftKey && active === last) wrapTo = first;
      if (!wrapTo) return;
      e.preventDefault();
      wrapTo.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [mobile, drawerOpen]);

  // However it closes (Escape, the scrim, Ctrl+B, a link), the focus left in the now inert drawer goes
  // back to the button that opened it, or after a link to the new page (whose own move to it was refused
  // while the page was inert). Once the page is no longer inert, a frame later.
  const openedOn = useRef<number | null>(null);
  useEffect(() => {
    if (mobile && drawerOpen) {
      // Kept from the opening: a link changes the place a render before the drawer closes.
      openedOn.current ??= visit;
      return;
    }
    const from = openedOn.current;
    openedOn.current = null;
    if (from === null || !mobile) return;
    requestAnimationFrame(() => {
      const active = document.activeElement;
      if (active && active !== document.body && !navRef.current?.contains(active)) return;
      if (from !== visit) document.querySelector<HTMLElement>('#dash-main')?.focus({ preventScroll: true });
      else document.querySelector<HTMLElement>('[aria-controls="dash-sidebar"]')?.focus();
    });
  }, [mobile, drawerOpen, visit]);

  const state = mobile ? (drawerOpen ? 'open' : 'closed') : open ? 'expanded' : 'collapsed';
  return (
    <>
      {mobile && drawerOpen ? (
        <div className="dash-scrim" onClick={() => setMobileSidebarOpen(false)} aria-hidden="true" />
      ) : null}
      {/* A div, not an aside: on a phone it is a dialog, a role an aside may not take. */}
      <div
        ref={navRef}
        id="dash-sidebar"
        className="dash-sidebar"
        data-state={state}
        aria-label="Dashboard"
        {...(!mobile
          ? { role: 'complementary' }
          : drawerOpen
            ? { role: 'dialog', 'aria-modal': true }
            : { inert: true, 'aria-hidden': true })}
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
                  const active = isActiveLink(item.href, menuPathOf(pathname, search, hrefs), hrefs);
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
      </div>
    </>
  );
}
