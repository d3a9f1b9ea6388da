import { env } from 'cloudflare:workers';

/** The public origin for share links and previews: PUBLIC_ORIGIN when configured, else the request's. */
export function siteOrigin(requestUrl: URL): string {
  const configured = (env as { PUBLIC_ORIGIN?: string }).PUBLIC_ORIGIN;
  if (configured) {
    try {
      return new URL(configured).origin;
    } catch {
      // A malformed setting falls back to the request origin rather than breaking every page.
    }
  }
  return requestUrl.origin;
}
