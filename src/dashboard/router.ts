import { atom } from 'nanostores';
import { isDashboardHref } from './lib/routes';

/**
 * Current location (pathname + search) for the client-only dashboard router. `visit` counts the
 * places the reader went (links, back and forward): focus moves to the page on each, even when only
 * the query changed (staff's My Appeals and Appeals), but not when a screen replaces its own address
 * in place to keep a filter in it.
 */
export const $location = atom<{ pathname: string; search: string; visit: number }>({
  pathname: '/dashboard',
  search: '',
  visit: 0,
});

/** How many dashboard entries sit behind the current one (from history.state). */
let inAppDepth = 0;

function sync(newVisit = true): void {
  inAppDepth = Number(window.history.state?.dashboardDepth ?? 0);
  const { visit } = $location.get();
  $location.set({
    pathname: window.location.pathname,
    search: window.location.search,
    visit: newVisit ? visit + 1 : visit,
  });
}

/** `keepScroll`: the same screen, filtered (a list's filter kept in its address), stays where it was. */
export function navigate(to: string, options: { replace?: boolean; keepScroll?: boolean } = {}): void {
  const url = new URL(to, window.location.origin);
  if (!isDashboardHref(url.href, window.location.origin)) {
    window.location.assign(url.href);
    return;
  }
  if (options.replace) window.history.replaceState(null, '', url.pathname + url.search + url.hash);
  else {
    window.history.pushState({ dashboardDepth: inAppDepth + 1 }, '', url.pathname + url.search + url.hash);
    inAppDepth += 1;
  }
  // A replaced entry in place (a list's filter kept in its address) is the same visit.
  sync(!options.replace || url.pathname !== $location.get().pathname);
  // Spec: scroll resets to the top on every path change.
  if (!options.keepScroll) window.scrollTo(0, 0);
}

/** Cancel buttons: browser history when the user came from inside the app, else the fallback. */
export function goBack(fallback: string): void {
  if (inAppDepth > 0) window.history.back();
  else navigate(fallback, { replace: true });
}

/** Intercepts same-origin /dashboard links so they route without a page load. */
export function startRouter(): () => void {
  sync();
  const onPop = () => sync();
  const onClick = (event: MouseEvent) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    const anchor = (event.target as Element | null)?.closest?.('a');
    if (!anchor?.href || anchor.target || anchor.hasAttribute('download')) return;
    if (!isDashboardHref(anchor.href, window.location.origin)) return;
    event.preventDefault();
    navigate(anchor.href);
  };
  window.addEventListener('popstate', onPop);
  document.addEventListener('click', onClick);
  return () => {
    window.removeEventListener('popstate', onPop);
    document.removeEventListener('click', onClick);
  };
}
