import { and, eq, gte, inArray, lt } from 'drizzle-orm';
import { chunks } from '../../../db/chunks';
import { campaigns, donations, users } from '../../../db/schema';
import { giftAidOn, registrationLine, ukTaxYear, ukTaxYearOf } from '../../../domain';
import { badRequest } from '../../lib/errors';
import { charityForOrganization } from '../organizations/charity';
import type { StatementDto } from '../../schemas/statement';
import { PAID_DONATION_STATUSES } from '../../../domain/statuses';
import type { SignedInContext } from '../../lib/service-context';

/** A donor's gifts in one UK tax year (6 April to 5 April, London time), for their tax return. */

/** Which tax year: the query's `tax_year` (its starting year), else the current one. */
export function parseTaxYear(value: string | undefined, now = new Date()): number {
  const current = ukTaxYearOf(now).startYear;
  if (value === undefined || value === '') return current;
  if (!/^\d{4}$/.test(value))
    throw badRequest('tax_year: give the year the tax year starts in, e.g. 2025 for 6 April 2025 to 5 April 2026');
  const year = Number(value);
  if (year < 2000 || year > current) throw badRequest(`tax_year: choose a year from 2000 to ${current}`);
  return year;
}

/** The signed-in donor's statement for the tax year starting in `startYear`. */
export async function statementFor(
  ctx: Pick<SignedInContext, 'db' | 'config' | 'viewer' | 'now'>,
  startYear: number,
): Promise<StatementDto> {
  const { db, config, now } = ctx;
  const userId = ctx.viewer.id;
  const year = ukTaxYear(startYear);
  const [donor] = await db
    .select({ first: users.firstName, last: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  const rows = await db
    .select()
    .from(donations)
    .where(
      and(
        eq(donations.donorId, userId),
        inArray(donations.status, [...PAID_DONATION_STATUSES]),
        gte(donations.date, year.start),
        lt(donations.date, year.end),
      ),
    )
    .orderBy(donations.date);
  const causeIds = [...new Set(rows.flatMap((r) => [r.campaignId, r.appealId]).filter((x): x is string => !!x))];
  const pieces = await Promise.all(
    chunks(causeIds).map((ids) =>
      db
        .select({ id: campaigns.id, title: campaigns.title, org: campaigns.organizationId })
        .from(campaigns)
        .where(inArray(campaigns.id, ids)),
    ),
  );
  const causes = new Map(pieces.flat().map((c) => [c.id, c]));
  const charities = new Map<string, Awaited<ReturnType<typeof charityForOrganization>>>();
  for (const r of rows) {
    const org = causes.get(r.campaignId)?.org ?? null;
    const key = org ?? '';
    if (!charities.has(key)) charities.set(key, await charityForOrganization(db, config, org));
  }
  const gifts = rows.map((r) => {
    const campaign = causes.get(r.campaignId);
    const appeal = r.appealId ? causes.get(r.appealId) : undefined;
    const net = r.amount - r.refundedAmount;
    return {
      _id: r.id,
      date: r.date.toISOString(),
      amount: r.amount,
      refunded: r.refundedAmount,
      net,
      type: r.type,
      cause: appeal ? `${appeal.title} (${campaign?.title ?? ''})` : (campaign?.title ?? ''),
      charity: charities.get(campaign?.org ?? '')?.name ?? config.charity.name,
      gift_aid: r.giftAid,
      reference: r.invoiceId ?? r.paymentIntentId ?? r.id,
    };
  });
  const giftAidNet = gifts.filter((g) => g.gift_aid).reduce((sum, g) => sum + g.net, 0);
  return {
    tax_year: {
      start_year: startYear,
      label: year.label,
      from: year.start.toISOString(),
      to: new Date(year.end.getTime() - 1).toISOString(),
    },
    donor: { name: [donor?.first, donor?.last].filter(Boolean).join(' '), email: donor?.email ?? '' },
    gifts,
    totals: {
      count: gifts.length,
      net: gifts.reduce((sum, g) => sum + g.net, 0),
      gift_aid_net: giftAidNet,
      gift_aid_value: giftAidOn(giftAidNet),
    },
    charities: [...charities.values()].map((c) => ({
      name: c.legalName || c.name,
      registration: registrationLine(c),
      address: c.address,
    })),
    generated_at: now.toISOString(),
  };
}
