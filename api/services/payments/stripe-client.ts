import Stripe from 'stripe';
import type { AppConfig } from '../../lib/config';

export { Stripe };

/**
 * Clients already made, by key and API base: `new Stripe()` builds every resource object of the
 * API (~100), which a storm's profile showed as a visible share of each webhook's CPU. A client
 * holds no request's I/O (its fetch client makes each call afresh), so an isolate can reuse it.
 */
const clients = new Map<string, Stripe>();
const MAX_CLIENTS = 8;

/**
 * The Stripe client for this configuration, or null in demo payments mode (no secret key). The
 * fetch client works in workerd and Node; `stripeApiBase` points the SDK at the local fake in tests.
 */
export function createStripe(config: Pick<AppConfig, 'stripeSecretKey' | 'stripeApiBase'>): Stripe | null {
  if (!config.stripeSecretKey) return null;
  const key = `${config.stripeSecretKey}\n${config.stripeApiBase ?? ''}`;
  const made = clients.get(key);
  if (made) return made;
  const options: Stripe.StripeConfig = {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 2,
    timeout: 20_000,
  };
  if (config.stripeApiBase) {
    const base = new URL(config.stripeApiBase);
    options.host = base.hostname;
    options.port = base.port ? Number(base.port) : base.protocol === 'http:' ? 80 : 443;
    options.protocol = base.protocol === 'http:' ? 'http' : 'https';
  }
  const client = new Stripe(config.stripeSecretKey, options);
  if (clients.size >= MAX_CLIENTS) clients.clear();
  clients.set(key, client);
  return client;
}

/** Signature verification needs no API key, so it also works in demo mode when a secret is set. */
/** How far a signature's timestamp may be from our clock, either way (Stripe's SDK checks only the past). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export class WebhookTimestampError extends Error {}

export async function verifyStripeEvent(
  rawBody: string,
  signature: string,
  secret: string,
  now = Date.now(),
): Promise<Stripe.Event> {
  const event = await Stripe.webhooks.constructEventAsync(
    rawBody,
    signature,
    secret,
    WEBHOOK_TOLERANCE_SECONDS,
    Stripe.createSubtleCryptoProvider(),
  );
  // The header is signed with the body, so its t= is the signer's; a time ahead of ours is a replay kept for later.
  const timestamp = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1]);
  if (!Number.isFinite(timestamp) || timestamp - Math.floor(now / 1000) > WEBHOOK_TOLERANCE_SECONDS) {
    throw new WebhookTimestampError('Stripe signature timestamp is in the future');
  }
  return event;
}

/** "pi_123_secret_abc" → "pi_123": Stripe's client secrets start with their intent's id. */
export function intentIdFromClientSecret(clientSecret: string): string | null {
  const match = /^(pi_[A-Za-z0-9]+)_secret_[A-Za-z0-9]+$/.exec(clientSecret);
  return match ? match[1] : null;
}
