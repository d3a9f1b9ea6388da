import { env } from 'cloudflare:workers';
import { canonicalOrigin, readConfig } from '../../../api/lib/config';
import type { Bindings } from '../../../api/lib/types';

/**
 * The public origin for canonical and share links, previews and the sitemap: PUBLIC_ORIGIN, or in
 * development the request's. Production without PUBLIC_ORIGIN throws (the page answers 503) rather
 * than trusting the Host header.
 */
export function siteOrigin(requestUrl: URL): string {
  return canonicalOrigin(readConfig(env as unknown as Bindings), requestUrl);
}
