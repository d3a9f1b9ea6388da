import { type CharityIdentity, type CharityRegulator, CHARITY_REGULATOR_IDS, DEFAULT_CHARITY_NAME } from '../../domain';
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
  publicOrigin: string | null;
  /** DEFAULT_CAMPAIGN_ID: parent of appeals created without a campaign_id. */
  defaultCampaignId: string | null;
  /** CHARITY_*: the platform's own charity (domain/charity.ts). */
  charity: CharityIdentity;
};

const DEV_AUTH_SECRET = 'local-development-only-secret-change-me';

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
    publicOrigin: env.PUBLIC_ORIGIN || null,
    defaultCampaignId: env.DEFAULT_CAMPAIGN_ID?.trim() || null,
    charity: readCharity(env),
  };
}

function readCharity(env: Bindings): CharityIdentity {
  const name = env.CHARITY_NAME?.trim() || DEFAULT_CHARITY_NAME;
  const regulator = (CHARITY_REGULATOR_IDS as string[]).includes(env.CHARITY_REGULATOR ?? '')
    ? (env.CHARITY_REGULATOR as CharityRegulator)
    : 'ccew';
  return {
    name,
    legalName: name,
    number: env.CHARITY_NUMBER?.trim() || null,
    regulator,
    address: env.CHARITY_ADDRESS?.trim() || null,
  };
}
