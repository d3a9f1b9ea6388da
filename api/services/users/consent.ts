import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { marketingConsents, users } from '../../../db/schema';
import { type ConsentSource, formatUkDate, MARKETING_CONSENT_WORDING } from '../../../domain';
import { badRequest } from '../../lib/errors';
import type { ConsentDto } from '../../schemas/consent';

/**
 * "Keep me updated by email" (PECR): never ticked for the donor, never bundled with the gift. Each
 * consent stores the wording shown, when and where; withdrawing stamps it. No marketing email is
 * sent from here: this is the record an email tool would read (docs/decisions/020).
 */

/** The wording the donor saw must be today's, word for word; else they consented to something else. */
export function checkWording(wording: string | undefined) {
  if (wording !== undefined && wording !== MARKETING_CONSENT_WORDING) {
    throw badRequest('consent_wording: the wording has changed since the page loaded; reload and tick the box again');
  }
}

/** Records consent unless the donor already has one that is not withdrawn (ticking twice is one consent). */
export async function recordConsent(db: Db, p: { userId: string; email: string; source: ConsentSource; now?: Date }) {
  const now = p.now ?? new Date();
  await db.insert(marketingConsents).select(
    sql`select ${crypto.randomUUID()}, ${p.userId}, ${p.email}, ${MARKETING_CONSENT_WORDING}, ${p.source}, ${now.getTime()}, null, ${now.getTime()}
      where not exists (select 1 from marketing_consents where user_id = ${p.userId} and withdrawn_at is null)`,
  );
}

export async function withdrawConsent(db: Db, userId: string, now = new Date()) {
  await db
    .update(marketingConsents)
    .set({ withdrawnAt: now })
    .where(and(eq(marketingConsents.userId, userId), isNull(marketingConsents.withdrawnAt)));
}

export async function consentOf(db: Db, userId: string): Promise<ConsentDto> {
  const [latest] = await db
    .select()
    .from(marketingConsents)
    .where(eq(marketingConsents.userId, userId))
    .orderBy(desc(marketingConsents.givenAt))
    .limit(1);
  const active = latest && !latest.withdrawnAt;
  return {
    consented: !!active,
    wording: MARKETING_CONSENT_WORDING,
    given: latest ? { wording: latest.wording, source: latest.source, given_at: latest.givenAt.toISOString() } : null,
    withdrawn_at: latest?.withdrawnAt?.toISOString() ?? null,
  };
}

const csvCell = (value: string) => {
  // Quote everything; neutralise spreadsheet formulas (=, +, -, @) in user-supplied text.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
};

/** Everyone whose consent stands today: email, name, when, where and the exact wording. */
export async function consentsCsv(db: Db): Promise<{ csv: string; count: number }> {
  const rows = await db
    .select({
      email: users.email,
      first: users.firstName,
      last: users.lastName,
      source: marketingConsents.source,
      givenAt: marketingConsents.givenAt,
      wording: marketingConsents.wording,
    })
    .from(marketingConsents)
    .innerJoin(users, eq(users.id, marketingConsents.userId))
    .where(and(isNull(marketingConsents.withdrawnAt), isNull(users.erasedAt)))
    .orderBy(marketingConsents.givenAt);
  const lines = [
    ['email', 'first_name', 'last_name', 'consented_on', 'consented_at_utc', 'source', 'wording']
      .map(csvCell)
      .join(','),
  ];
  for (const r of rows) {
    lines.push(
      [r.email, r.first, r.last, formatUkDate(r.givenAt), r.givenAt.toISOString(), r.source, r.wording]
        .map(csvCell)
        .join(','),
    );
  }
  return { csv: `${lines.join('\r\n')}\r\n`, count: rows.length };
}
