import type { ClientDirective } from 'astro';

/**
 * `client:signin`, the header sign-in island's loading strategy (astro.config.mjs). Hydrating it
 * fetches and runs React (the largest script of a public page) on every page, while most visitors
 * never sign in: so it hydrates only
 * - once the page is idle when a session token is stored (the avatar menu must come back),
 * - when the visitor reaches for it (pointer over, touch, focus or a click, which is replayed once
 *   React is there),
 * - when any other island hydrates (React is then loaded anyway, and that island may open the
 *   sign-in dialog through the auth store),
 * - at once on a page that opens the dialog by itself (/login marks its button `data-open-login`).
 * Inlined into every page by Astro (and hashed into the CSP), so it imports nothing: the key is
 * src/stores/auth.ts's TOKEN_KEY (sign-in-directive.test.ts keeps them equal).
 */
export const STORED_TOKEN_KEY = 'uk_nfp_token';

const INTENT = ['pointerover', 'touchstart', 'focusin', 'keydown'] as const;

const signInDirective: ClientDirective = (load, _options, el) => {
  let started = false;
  let hydrated = false;
  let clickWaiting = false;

  const hydrate = async () => {
    if (started) return;
    started = true;
    for (const type of INTENT) el.removeEventListener(type, hydrateNow, true);
    document.removeEventListener('astro:hydrate', hydrateNow, true);
    await (await load())();
    hydrated = true;
    el.removeEventListener('click', onClick, true);
    for (const busy of el.querySelectorAll('[aria-busy]')) busy.removeAttribute('aria-busy');
    // A click that came before React: the button did nothing then, so it is given again.
    if (clickWaiting) el.querySelector<HTMLElement>('button')?.click();
  };
  const hydrateNow = () => void hydrate();
  const onClick = () => {
    if (hydrated) return;
    clickWaiting = true;
    // On a slow phone React can take a second or more: the button says it heard the tap.
    el.querySelector('button')?.setAttribute('aria-busy', 'true');
    void hydrate();
  };

  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORED_TOKEN_KEY);
  } catch {
    // Storage refused (private mode): nobody can be signed in from a stored token.
  }
  if (stored) {
    if ('requestIdleCallback' in window) window.requestIdleCallback(hydrateNow);
    else setTimeout(hydrateNow, 200);
    return;
  }
  for (const type of INTENT) el.addEventListener(type, hydrateNow, { capture: true, passive: true });
  el.addEventListener('click', onClick, true);
  // astro:hydrate does not bubble, but a capturing listener on the document still hears it.
  document.addEventListener('astro:hydrate', hydrateNow, true);
  // The header comes before the page's content: look for the marker once the document is parsed.
  const opensDialog = () => document.querySelector('[data-open-login]') !== null;
  if (document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', () => opensDialog() && hydrateNow(), { once: true });
  else if (opensDialog()) hydrateNow();
};

export default signInDirective;

declare module 'astro' {
  interface AstroClientDirectives {
    'client:signin'?: boolean;
  }
}
