import { z } from 'zod';
import {
  type CharityIdentity,
  type CharityRegulator,
  CHARITY_REGULATOR_IDS,
  DEFAULT_CHARITY_NAME,
  EMAIL_PATTERN,
} from '../../domain';
import type { AppConfig, Bindings } from './types';
import { logLine } from '../middlewares/logger';

export type { AppConfig } from './types';

/** The charity's contact address shown in the footer; Contact Support mail goes there unless SUPPORT_EMAIL says otherwise. */
export const DEFAULT_SUPPORT_EMAIL = 'hello@uknfp.org';

const DEV_AUTH_SECRET = 'local-development-only-secret-change-me';

/** "" counts as unset, like a variable that is not there. */
const setting = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());
const url = (name: string) => z.url({ error: `${name} must be an absolute URL, like https://example.org` });

/**
 * Every setting the worker reads (README: Configuration), parsed once per environment with zod.
 * Cross-field rules (a Stripe secret without its publishable key...) are in configProblems.
 */
const envSchema = z.object({
  /** Only `development` turns on the local tools; anything else (staging, production, unset) is production. */
  APP_ENV: setting(z.string().max(40)),
  AUTH_SECRET: setting(z.string().min(16, 'AUTH_SECRET must be at least 16 characters (use 32+ random ones)')),
  ADMIN_EMAILS: setting(
    z.string().refine(
      (v) =>
        v
          .split(',')
          .map((e) => e.trim())
          .filter(Boolean)
          .every((e) => EMAIL_PATTERN.test(e.toLowerCase())),
      'ADMIN_EMAILS must be email addresses separated by commas',
    ),
  ),
  STRIPE_SECRET_KEY: setting(
    z.string().regex(/^(sk|rk)_(test|live)_/, 'STRIPE_SECRET_KEY must start with sk_test_, sk_live_ (or rk_)'),
  ),
  STRIPE_PUBLISHABLE_KEY: setting(
    z.string().regex(/^pk_(test|live)_/, 'STRIPE_PUBLISHABLE_KEY must start with pk_test_ or pk_live_'),
  ),
  STRIPE_WEBHOOK_SECRET: setting(z.string().regex(/^whsec_/, 'STRIPE_WEBHOOK_SECRET must start with whsec_')),
  STRIPE_API_BASE: setting(url('STRIPE_API_BASE')),
  MAIL_API_KEY: setting(z.string()),
  MAIL_API_URL: setting(url('MAIL_API_URL')),
  MAIL_FROM: setting(z.string().max(200)),
  SUPPORT_EMAIL: setting(
    z.string().trim().toLowerCase().regex(EMAIL_PATTERN, 'SUPPORT_EMAIL must be one email address'),
  ),
  PUBLIC_ORIGIN: setting(url('PUBLIC_ORIGIN')),
  CHARITY_NAME: setting(z.string().max(200)),
  CHARITY_NUMBER: setting(z.string().max(20)),
  CHARITY_ADDRESS: setting(z.string().max(300)),
  CHARITY_REGULATOR: setting(
    z.enum(CHARITY_REGULATOR_IDS as [CharityRegulator, ...CharityRegulator[]], {
      error: `CHARITY_REGULATOR must be one of: ${CHARITY_REGULATOR_IDS.join(', ')}`,
    }),
  ),
  DEFAULT_CAMPAIGN_ID: setting(z.string().max(64)),
  TURNSTILE_SITE_KEY: setting(z.string().max(200)),
  TURNSTILE_SECRET_KEY: setting(z.string().max(200)),
  TURNSTILE_VERIFY_URL: setting(url('TURNSTILE_VERIFY_URL')),
});

export type ConfigCheck = {
  /** Wrong or half-set settings: in production the API refuses to serve (503) until they are fixed. */
  problems: string[];
  /** Features left off in production (no Stripe, no mail, no sign-in): each fails closed on its own. */
  missing: string[];
};

/** Every problem with the environment at once, so one deploy fixes them all. */
export function checkConfig(env: Partial<Bindings>): ConfigCheck {
  const parsed = envSchema.safeParse(env);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
  const value = (name: keyof Bindings) =>
    typeof env[name] === 'string' && (env[name] as string).trim() !== '' ? (env[name] as string) : undefined;
  const secret = value('STRIPE_SECRET_KEY');
  const publishable = value('STRIPE_PUBLISHABLE_KEY');
  if (secret && !publishable)
    problems.push('STRIPE_SECRET_KEY is set without STRIPE_PUBLISHABLE_KEY: the card form cannot load');
  if (publishable && !secret)
    problems.push('STRIPE_PUBLISHABLE_KEY is set without STRIPE_SECRET_KEY: no payment can be started');
  if (secret && !value('STRIPE_WEBHOOK_SECRET'))
    problems.push('STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET: paid gifts would never be recorded');
  if (secret && publishable && /_live_/.test(secret) !== /_live_/.test(publishable)) {
    problems.push('STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are from different modes (one live, one test)');
  }
  if (value('CHARITY_NUMBER') && !value('CHARITY_NAME'))
    problems.push('CHARITY_NUMBER is set without CHARITY_NAME: declarations would name the default charity');
  const turso = tursoUrlProblem(value('TURSO_DATABASE_URL'), value('APP_ENV') === 'development');
  if (turso) problems.push(turso);

  const missing: string[] = [];
  if (value('APP_ENV') !== 'development') {
    if (!value('AUTH_SECRET')) missing.push('AUTH_SECRET (sign-in is off)');
    if (!value('MAIL_API_KEY')) missing.push('MAIL_API_KEY (no sign-in email can be sent)');
    if (!secret) missing.push('STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY (card payments are off)');
    if (!value('ADMIN_EMAILS')) missing.push('ADMIN_EMAILS (nobody signs in as an admin)');
    if (!value('PUBLIC_ORIGIN'))
      missing.push('PUBLIC_ORIGIN (pages answer 503: the Host header is not trusted for canonical links)');
  }
  return { problems, missing };
}

/**
 * TURSO_DATABASE_URL: `libsql://` or `https://` (the web client speaks HTTP; `file:` cannot open
 * inside workerd). Plain `http://` carries the auth token in clear, so only a local development
 * server may use it: `npm run db:turso-local` (README).
 */
export function tursoUrlProblem(url: string | undefined, development: boolean): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'TURSO_DATABASE_URL must be a URL, like libsql://your-db.turso.io';
  }
  if (parsed.protocol === 'libsql:' || parsed.protocol === 'https:') return null;
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol === 'http:' && development && loopback) return null;
  if (parsed.protocol === 'http:') {
    return development
      ? 'TURSO_DATABASE_URL over http:// must point at this machine (localhost or 127.0.0.1); use libsql:// or https:// for a remote database'
      : 'TURSO_DATABASE_URL must use libsql:// or https:// in production: http:// would send the auth token in clear';
  }
  return 'TURSO_DATABASE_URL must start with libsql:// or https:// (file: databases cannot be opened by the worker)';
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Configuration problems: ${problems.join('; ')}`);
  }
}

const checked = new WeakMap<object, ConfigCheck>();

/**
 * The configuration for a request. The environment is checked once per environment object (once
 * per isolate in the worker); in production a wrong or half-set setting throws ConfigError listing
 * every problem, which the API answers with a 503 (fail closed) and logs once.
 */
export function loadConfig(env: Bindings): AppConfig {
  let check = checked.get(env);
  if (!check) {
    check = checkConfig(env);
    checked.set(env, check);
    const production = env.APP_ENV !== 'development';
    if (production && check.problems.length)
      logLine('error', 'configuration problems', { count: check.problems.length, problems: check.problems.join('; ') });
    if (production && check.missing.length) console.warn(`[config] not configured: ${check.missing.join('; ')}`);
  }
  const config = readConfig(env);
  if (config.production && check.problems.length) throw new ConfigError(check.problems);
  return config;
}

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

/**
 * The configuration an environment object holds, read once per object: the worker's `env` is one
 * object for the isolate's life, and each of its bindings is a call into the runtime (a storm's
 * profile put reading them on every request at 2% of the worker's time). Treat it as read-only.
 */
const readConfigs = new WeakMap<object, AppConfig>();

/** Read the environment at the boundary (STYLE habit 6), once per environment object. */
export function readConfig(env: Bindings): AppConfig {
  let config = readConfigs.get(env);
  if (!config) readConfigs.set(env, (config = configOf(env)));
  return config;
}

function configOf(env: Bindings): AppConfig {
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
    // Only for the local Stripe fake: a deployment never sends its Stripe key anywhere but Stripe.
    stripeApiBase: production ? null : env.STRIPE_API_BASE || null,
    mailApiKey: env.MAIL_API_KEY || null,
    mailApiUrl: env.MAIL_API_URL || 'https://api.resend.com/emails',
    mailFrom: env.MAIL_FROM || 'UK NFP <hello@uknfp.org>',
    publicOrigin: parseOrigin(env.PUBLIC_ORIGIN),
    turnstileSiteKey: env.TURNSTILE_SITE_KEY || (production ? null : TURNSTILE_TEST_SITE_KEY),
    turnstileSecretKey: env.TURNSTILE_SECRET_KEY || (production ? null : TURNSTILE_TEST_SECRET_KEY),
    turnstileVerifyUrl: env.TURNSTILE_VERIFY_URL || TURNSTILE_VERIFY_URL,
    defaultCampaignId: env.DEFAULT_CAMPAIGN_ID?.trim() || null,
    charity: readCharity(env),
    supportEmail: env.SUPPORT_EMAIL?.trim().toLowerCase() || DEFAULT_SUPPORT_EMAIL,
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
