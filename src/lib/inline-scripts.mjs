// @ts-check
/**
 * The only inline scripts we ship. They live here, as strings, so astro.config.mjs can allow each
 * one by its SHA-256 hash in the Content-Security-Policy: change a script and its hash follows.
 * Everything else runs from bundled files (script-src 'self') or Astro's hashed island loaders.
 */

/** Layout: scroll resets to the top on every path change (new documents only, not back/forward). */
export const SCROLL_RESET_SCRIPT =
  "(function(){var n=performance.getEntriesByType('navigation')[0];if(n&&n.type==='navigate'&&!location.hash)window.scrollTo(0,0);})();";

/** Dashboard: apply the saved theme before first paint (key 'uk-nfp-app': light, dark or system). */
export const THEME_SCRIPT =
  "(function(){var t='system';try{t=localStorage.getItem('uk-nfp-app')||'system';}catch(e){}if(t!=='light'&&t!=='dark')t=window.matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';document.documentElement.dataset.theme=t;})();";

export const INLINE_SCRIPTS = [SCROLL_RESET_SCRIPT, THEME_SCRIPT];
