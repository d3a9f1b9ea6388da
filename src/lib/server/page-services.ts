import { env } from 'cloudflare:workers';
import { readConfig } from '../../../api/lib/config';
import type { Bindings } from '../../../api/lib/types';
import { linkOrigin } from '../../../api/services/monthly-gifts/link-tokens';
import { createPaymentProvider } from '../../../api/services/payments';
import type { CharityIdentity } from '../../../domain';
import { SITE } from '../site';
import { getDb } from './db';

/** What a server-rendered page that acts (the monthly gift links) needs: the context the API's routes build. */
export function pageServices(url: URL) {
  const config = readConfig(env as unknown as Bindings);
  const db = getDb();
  return {
    db,
    config,
    payments: createPaymentProvider(config),
    authSecret: config.authSecret,
    mail: { db, config, origin: linkOrigin(config.publicOrigin, url.href) },
  };
}

/**
 * The platform's operator for the footer, /fees and /policy (CHARITY_*; the site's name when unset,
 * and then no number: never a receiving charity's). Gifts go to each campaign's own organization.
 */
export function siteCharity(): CharityIdentity {
  let charity: CharityIdentity | null = null;
  try {
    charity = readConfig((env ?? {}) as unknown as Bindings).charity;
  } catch {
    charity = null;
  }
  return {
    name: charity?.name ?? SITE.name,
    legalName: charity?.legalName ?? SITE.name,
    number: charity?.number ?? null,
    regulator: charity?.regulator ?? 'ccew',
    address: charity?.address ?? null,
  };
}
