import type { Bindings } from './types';

export const APPLE_PAY_ASSOCIATION_PATH = '/.well-known/apple-developer-merchantid-domain-association';

/**
 * Apple Pay's domain verification file, served from configuration (APPLE_PAY_DOMAIN_ASSOCIATION:
 * the file Stripe gives for the domain, pasted whole). 404 when unset, so nothing claims a domain
 * that was never registered.
 */
export function applePayAssociation(env: Pick<Bindings, 'APPLE_PAY_DOMAIN_ASSOCIATION'>): Response {
  const body = env.APPLE_PAY_DOMAIN_ASSOCIATION?.trim();
  if (!body)
    return Response.json({ statusCode: 404, message: 'Apple Pay is not set up for this domain' }, { status: 404 });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' },
  });
}
