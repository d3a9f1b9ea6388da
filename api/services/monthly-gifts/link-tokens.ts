import { CANCEL_LINK_DAYS } from '../../../domain';
import { constantTimeEqual } from '../auth/login-codes';

/**
 * Signed links in monthly-gift emails that work without signing in. A token names one purpose,
 * one subscription and an expiry, and carries an HMAC over all three with a key derived from
 * AUTH_SECRET, so it cannot be moved to another subscription, stretched, or reused for another job.
 */
export type LinkPurpose = 'cancel' | 'card';

const encoder = new TextEncoder();
const b64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

async function hmac(key: string, message: string): Promise<ArrayBuffer> {
  const cryptoKey = await crypto.subtle.importKey(
    'raw',
    encoder.encode(key),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(message));
}

/** A key used only for these links, so a token can never stand in for a sign-in code hash. */
async function linkKey(authSecret: string): Promise<string> {
  return b64url(await hmac(authSecret, 'monthly-gift-links/v1'));
}

export async function signMonthlyLink(
  authSecret: string,
  purpose: LinkPurpose,
  subscriptionId: string,
  now = new Date(),
  days = CANCEL_LINK_DAYS,
): Promise<string> {
  const expires = Math.floor(now.getTime() / 1000) + days * 86400;
  const payload = `${purpose}.${subscriptionId}.${expires}`;
  return `${payload}.${b64url(await hmac(await linkKey(authSecret), payload))}`;
}

export type LinkCheck =
  | { ok: true; subscriptionId: string; expiresAt: Date }
  | { ok: false; reason: 'malformed' | 'tampered' | 'expired' | 'wrong-purpose' };

export async function verifyMonthlyLink(
  authSecret: string,
  purpose: LinkPurpose,
  token: string | null | undefined,
  now = new Date(),
): Promise<LinkCheck> {
  if (!authSecret || !token || token.length > 300) return { ok: false, reason: 'malformed' };
  const match = /^(cancel|card)\.((?:sub)_[A-Za-z0-9_]{3,200})\.(\d{9,11})\.([A-Za-z0-9_-]{43})$/.exec(token.trim());
  if (!match) return { ok: false, reason: 'malformed' };
  const [, tokenPurpose, subscriptionId, expires, signature] = match;
  const expected = b64url(await hmac(await linkKey(authSecret), `${tokenPurpose}.${subscriptionId}.${expires}`));
  if (!constantTimeEqual(expected, signature)) return { ok: false, reason: 'tampered' };
  if (tokenPurpose !== purpose) return { ok: false, reason: 'wrong-purpose' };
  const expiresAt = new Date(Number(expires) * 1000);
  if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, subscriptionId, expiresAt };
}

/** Where links in emails point: PUBLIC_ORIGIN when set, else the origin the request came to. */
export function linkOrigin(publicOrigin: string | null, requestUrl?: string): string {
  if (publicOrigin) return publicOrigin.replace(/\/+$/, '');
  if (requestUrl) return new URL(requestUrl).origin;
  return 'http://localhost:4321';
}

export async function cancelLinkUrl(authSecret: string, origin: string, subscriptionId: string, now = new Date()) {
  return `${origin}/monthly/cancel?token=${encodeURIComponent(await signMonthlyLink(authSecret, 'cancel', subscriptionId, now))}`;
}

export async function updateCardUrl(authSecret: string, origin: string, subscriptionId: string, now = new Date()) {
  return `${origin}/monthly/card?token=${encodeURIComponent(await signMonthlyLink(authSecret, 'card', subscriptionId, now, 30))}`;
}
