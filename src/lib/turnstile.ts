import { api, client } from './api';

/**
 * Cloudflare Turnstile in the browser, loaded only when the server asks for the check (an answer
 * with statusCode 428). The script comes from challenges.cloudflare.com, which the
 * Content-Security-Policy allows (src/lib/csp-policy.mjs); the site key from GET /api/turnstile.
 */
export const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
export const CHALLENGE_STATUS = 428;

type RenderOptions = {
  sitekey: string;
  callback: (token: string) => void;
  'error-callback'?: () => void;
  'expired-callback'?: () => void;
  action?: string;
};
export type TurnstileApi = {
  render: (element: HTMLElement, options: RenderOptions) => string;
  remove: (widgetId: string) => void;
};

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

let siteKey: Promise<string | null> | null = null;
let script: Promise<TurnstileApi> | null = null;

export function turnstileSiteKey(): Promise<string | null> {
  siteKey ??= api((o) => client.api.turnstile.$get(undefined, o), { token: null }).then((result) => {
    if (!result.ok) {
      siteKey = null;
      return null;
    }
    return result.data.site_key;
  });
  return siteKey;
}

export function loadTurnstile(): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  script ??= new Promise<TurnstileApi>((resolve, reject) => {
    const tag = document.createElement('script');
    tag.src = TURNSTILE_SCRIPT;
    tag.async = true;
    tag.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error('Turnstile did not load')));
    tag.onerror = () => {
      script = null;
      reject(new Error('Turnstile could not be loaded'));
    };
    document.head.appendChild(tag);
  });
  return script;
}
