import { useStore } from '@nanostores/react';
import { useId, type KeyboardEvent } from 'react';
import {
  $isMobile,
  $loading,
  $mobileSidebarOpen,
  $sidebarOpen,
  $theme,
  setTheme,
  THEMES,
  toggleSidebar,
  type Theme,
} from '../stores/dashboard';
import { $dashUser, logout } from './session';
import { Icon } from './ui/icons';

const THEME_ICON = { light: 'sun', dark: 'moon', system: 'monitor' } as const;

function ThemeSwitcher() {
  const theme = useStore($theme);
  const id = useId();
  // Radio group keyboard pattern: one tab stop, arrow keys move the choice.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step =
      e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const next = THEMES[(THEMES.indexOf(theme) + step + THEMES.length) % THEMES.length];
    setTheme(next);
    e.currentTarget.querySelector<HTMLElement>(`[data-theme-choice="${next}"]`)?.focus();
  };
  return (
    <div className="dash-theme" role="radiogroup" aria-labelledby={id} onKeyDown={onKeyDown}>
      <span id={id} className="visually-hidden">
        Theme
      </span>
      {THEMES.map((t: Theme) => (
        <button
          key={t}
          type="button"
          role="radio"
          aria-checked={theme === t}
          tabIndex={theme === t ? 0 : -1}
          data-theme-choice={t}
          className="dash-theme-btn"
          onClick={() => setTheme(t)}
          title={`${t[0].toUpperCase()}${t.slice(1)} theme`}
        >
          <Icon name={THEME_ICON[t]} size={16} />
          <span className="visually-hidden">{t} theme</span>
        </button>
      ))}
    </div>
  );
}

export function DashboardHeader() {
  const user = useStore($dashUser);
  const loading = useStore($loading);
  const mobile = useStore($isMobile);
  const open = useStore($sidebarOpen);
  const drawerOpen = useStore($mobileSidebarOpen);
  const expanded = mobile ? drawerOpen : open;
  return (
    <header className="dash-header">
      <button
        type="button"
        className="dash-icon-btn"
        onClick={toggleSidebar}
        aria-controls="dash-sidebar"
        aria-expanded={expanded}
        aria-label="Toggle sidebar"
        title="Toggle sidebar (Ctrl+B)"
        data-testid="sidebar-toggle"
      >
        <Icon name="panel" />
      </button>
      <a className="dash-link dash-hide-sm" href="/">
        Back to site
      </a>
      <div className="dash-header-right">
        {loading ? (
          <span className="dash-loading-dot" role="status">
            <Icon name="loader" size={16} className="dash-spin" />
            <span className="visually-hidden">Loading</span>
          </span>
        ) : null}
        <ThemeSwitcher />
        {user ? (
          <>
            <span className="dash-user dash-hide-sm" title={user.email}>
              <span className="dash-avatar" aria-hidden="true">
                {(user.name?.first_name || user.email).charAt(0).toUpperCase()}
              </span>
              {user.name?.first_name || user.email}
            </span>
            <button type="button" className="btn btn-ghost dash-btn-sm" onClick={() => void logout()}>
              Log out
            </button>
          </>
        ) : null}
      </div>
    </header>
  );
}
