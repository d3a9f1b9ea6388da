import type { CharityIdentity } from '../../domain';
import type { UserType } from '../../domain/statuses';
import type { Db, DbEnv } from '../../db/client';
import type { PaymentProvider } from '../services/payments/provider';

/** Worker bindings and secrets (README: Configuration). */
export type Bindings = DbEnv & {
  IMAGES?: R2Bucket;
  APP_ENV?: string;
  ADMIN_EMAILS?: string;
  AUTH_SECRET?: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_PUBLISHABLE_KEY?: string;
  STRIPE_API_BASE?: string;
  /** Apple Pay's domain association file (from Stripe's dashboard), served at /.well-known/… */
  APPLE_PAY_DOMAIN_ASSOCIATION?: string;
  MAIL_API_KEY?: string;
  MAIL_API_URL?: string;
  MAIL_FROM?: string;
  /** Where Contact Support messages are emailed. */
  SUPPORT_EMAIL?: string;
  PUBLIC_ORIGIN?: string;
  /** Seconds a cached public page stays fresh (1-30; default 30). Tests shorten it. */
  PAGE_FRESH_SECONDS?: string;
  TURNSTILE_SITE_KEY?: string;
  TURNSTILE_SECRET_KEY?: string;
  /** Overrides Turnstile's siteverify URL (tests point it at a local fake). */
  TURNSTILE_VERIFY_URL?: string;
  /** The platform's own charity, named on pages, receipts and declarations when an organization has no identity of its own. */
  CHARITY_NAME?: string;
  CHARITY_NUMBER?: string;
  CHARITY_ADDRESS?: string;
  /** ccew (default), oscr or ccni. */
  CHARITY_REGULATOR?: string;
  /** Parent campaign for appeals created without one (spec section 7); else the oldest approved campaign. */
  DEFAULT_CAMPAIGN_ID?: string;
};

export type AuthUser = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  type: UserType;
  avatar: string | null;
  orgIds: string[];
  sessionId: string;
};

export type Variables = {
  db: Db;
  config: AppConfig;
  /** Stripe or demo payments, chosen once from the configuration. */
  payments: PaymentProvider;
  requestId: string;
  user: AuthUser | null;
};

export type AppEnv = { Bindings: Bindings; Variables: Variables };

/** The settings the app reads from its bindings once per isolate (api/lib/config.ts readConfig). */
export type AppConfig = {
  adminEmails: Set<string>;
  /** Keys login codes' hashes; a fixed development key is used only in development. Empty: sign-in is off. */
  authSecret: string;
  /** True unless APP_ENV=development: a deploy that forgets APP_ENV fails closed (no dev outbox, no demo payments). */
  production: boolean;
  stripeSecretKey: string | null;
  stripeWebhookSecret: string | null;
  stripePublishableKey: string | null;
  /** Overrides the Stripe API host, for the local fake (tests, the storm bench); honoured only in development. */
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
  /** CHARITY_*: the platform's own charity (domain/charity.ts). */
  charity: CharityIdentity;
  /** SUPPORT_EMAIL: where Contact Support messages are sent (the footer's contact address by default). */
  supportEmail: string;
};

/** What createApp may be given. */
export type AppDeps = {
  /** Injected database (tests on libSQL); otherwise built from the bindings per request. */
  db?: Db;
};
