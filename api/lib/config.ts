import type { Bindings } from './types';

export type AppConfig = {
  adminEmails: Set<string>;
  /** Keys login codes' hashes; a fixed development key is used only in development. Empty: sign-in is off. */
  authSecret: string;
  /** True unless APP_ENV=development: a deploy that forgets APP_ENV fails closed (no dev outbox, no demo payments). */
  production: boolean;
  stripeSecretKey: string | null;
  stripeWebhookSecret: string | null;
  stripePublishableKey: string | null;
  /** Overrides the Stripe API host, for the local fake in tests. */
  stripeApiBase: string | null;
  mailApiKey: string | null;
  mailApiUrl: string;
  mailFrom: string;
  /** PUBLIC_ORIGIN as an origin (`https://host`); null when unset or not an http(s) URL. */
  publicOrigin: string | null;
  /** Cloudflare Turnstile; locally the always-pass test keys, in production null unless set. */
  turnstileSiteKey: string | null;
  turnstileSecretKey: string | null;
  /** Overrides the siteverify endpoint, for the local fake in tests. */
  turnstileVerifyUrl: string;
  /** DEFAULT_CAMPAIGN_ID: parent of appeals created without a campaign_id. */
  defaultCampaignId: string | null;
};

const DEV_AUTH_SECRET = 'local-development-only-secret-change-me';

/** Turnstile's documented test keys: the widget and siteverify always pass. Never used in production. */
export const TURNSTILE_TEST_SITE_KEY = '1x00000000000000000000AA';
export const TURNSTILE_TEST_SECRET_KEY = '1x0000000000000000000000000000000AA';
export const TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

/** The origin of an http(s) URL, else null (a malformed setting counts as missing). */
export function parseOrigin(value: string | undefined): string | null {
  if (!value?.trim()) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** A setting production cannot run without; pages and the API answer 503 and log which one. */
export class MissingSettingError extends Error {
  constructor(readonly setting: string) {
    super(`${setting} is not set; this production deployment refuses to guess it`);
  }
}

/**
 * The origin for canonical links, share links and sitemaps. Production requires PUBLIC_ORIGIN
 * (fail closed, like AUTH_SECRET): the Host header is the caller's to choose.
 */
export function canonicalOrigin(config: Pick<AppConfig, 'production' | 'publicOrigin'>, requestUrl: URL): string {
  if (config.publicOrigin) return config.publicOrigin;
  if (config.production) throw new MissingSettingError('PUBLIC_ORIGIN');
  return requestUrl.origin;
}

/** Read the environment once per request, at the boundary (STYLE habit 6). */
export function readConfig(env: Bindings): AppConfig {
  const production = env.APP_ENV !== 'development';
  const authSecret = env.AUTH_SECRET || (production ? '' : DEV_AUTH_SECRET);
  return {
    adminEmails: new Set(
      (env.ADMIN_EMAILS ?? '')
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    ),
    authSecret,
    production,
    stripeSecretKey: env.STRIPE_SECRET_KEY || null,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || null,
    stripePublishableKey: env.STRIPE_PUBLISHABLE_KEY || null,
    stripeApiBase: env.STRIPE_API_BASE || null,
    mailApiKey: env.MAIL_API_KEY || null,
    mailApiUrl: env.MAIL_API_URL || 'https://api.resend.com/emails',
    mailFrom: env.MAIL_FROM || 'UK NFP <hello@uknfp.org>',
    publicOrigin: parseOrigin(env.PUBLIC_ORIGIN),
    turnstileSiteKey: env.TURNSTILE_SITE_KEY || (production ? null : TURNSTILE_TEST_SITE_KEY),
    turnstileSecretKey: env.TURNSTILE_SECRET_KEY || (production ? null : TURNSTILE_TEST_SECRET_KEY),
    turnstileVerifyUrl: env.TURNSTILE_VERIFY_URL || TURNSTILE_VERIFY_URL,
    defaultCampaignId: env.DEFAULT_CAMPAIGN_ID?.trim() || null,
  };
}
