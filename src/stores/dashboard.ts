import { atom, computed } from 'nanostores';

/** Spec section 9: the sidebar cookie lives 7 days. */
export const SIDEBAR_COOKIE = 'sidebar:state';
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;
/** Spec section 4: theme key in localStorage. */
export const THEME_STORAGE_KEY = 'uk-nfp-app';
export const MOBILE_BREAKPOINT = 768;

export type Theme = 'light' | 'dark' | 'system';
export const THEMES: readonly Theme[] = ['light', 'dark', 'system'];

/** Desktop sidebar: expanded (true) or collapsed to icons (false). */
export const $sidebarOpen = atom<boolean>(true);
/** Phone drawer (below 768 px at the default text size, 48em): open or closed; never persisted. */
export const $mobileSidebarOpen = atom<boolean>(false);
export const $isMobile = atom<boolean>(false);
export const $theme = atom<Theme>('system');
/** Global loading flag (spec section 4); a counter so overlapping loads don't clear each other. */
const $loadingCount = atom(0);
export const $loading = computed($loadingCount, (n) => n > 0);

export function readSidebarCookie(cookie: string): boolean | undefined {
  const match = cookie.split(/;\s*/).find((part) => part.startsWith(`${SIDEBAR_COOKIE}=`));
  if (!match) return undefined;
  return match.slice(SIDEBAR_COOKIE.length + 1) !== 'false';
}

export function sidebarCookieValue(open: boolean): string {
  return `${SIDEBAR_COOKIE}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; samesite=lax`;
}

export function parseTheme(value: string | null | undefined): Theme {
  return value === 'light' || value === 'dark' || value === 'system' ? value : 'system';
}

export function setSidebarOpen(open: boolean): void {
  $sidebarOpen.set(open);
  if (typeof document !== 'undefined') document.cookie = sidebarCookieValue(open);
}

/** Ctrl/Cmd+B: the drawer on phones, the persisted sidebar on wider screens. */
export function toggleSidebar(): void {
  if ($isMobile.get()) $mobileSidebarOpen.set(!$mobileSidebarOpen.get());
  else setSidebarOpen(!$sidebarOpen.get());
}

export function setMobileSidebarOpen(open: boolean): void {
  $mobileSidebarOpen.set(open);
}

export function setTheme(theme: Theme): void {
  $theme.set(theme);
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  applyTheme(theme);
}

export function resolveTheme(theme: Theme, prefersDark: boolean): 'light' | 'dark' {
  return theme === 'system' ? (prefersDark ? 'dark' : 'light') : theme;
}

export function applyTheme(theme: Theme): void {
  if (typeof document === 'undefined') return;
  const prefersDark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  document.documentElement.dataset.theme = resolveTheme(theme, prefersDark);
}

export function startLoading(): () => void {
  $loadingCount.set($loadingCount.get() + 1);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    $loadingCount.set(Math.max(0, $loadingCount.get() - 1));
  };
}

/** Reads cookie and localStorage once on the client; returns a cleanup for listeners. */
export function initDashboardUi(): () => void {
  const fromCookie = readSidebarCookie(document.cookie);
  if (fromCookie !== undefined) $sidebarOpen.set(fromCookie);
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(THEME_STORAGE_KEY);
  } catch {
    stored = null;
  }
  const theme = parseTheme(stored);
  $theme.set(theme);
  applyTheme(theme);

  // In em, as the stylesheets' breakpoints: a reader's larger default text size brings the phone layout sooner.
  const mobileQuery = window.matchMedia(`(max-width: ${(MOBILE_BREAKPOINT - 1) / 16}em)`);
  const onMobile = () => {
    $isMobile.set(mobileQuery.matches);
    if (!mobileQuery.matches) $mobileSidebarOpen.set(false);
  };
  onMobile();
  mobileQuery.addEventListener('change', onMobile);

  const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');
  const onScheme = () => applyTheme($theme.get());
  darkQuery.addEventListener('change', onScheme);

  const onKey = (event: KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'b') {
      event.preventDefault();
      toggleSidebar();
    }
  };
  window.addEventListener('keydown', onKey);
  return () => {
    mobileQuery.removeEventListener('change', onMobile);
    darkQuery.removeEventListener('change', onScheme);
    window.removeEventListener('keydown', onKey);
  };
}
