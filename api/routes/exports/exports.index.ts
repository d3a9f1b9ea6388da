import type { RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { formatUkDate, HOUR_MS } from '../../../domain/dates';
import { PAID_DONATION_STATUSES } from '../../../domain/statuses';
import { penceToDecimal } from '../../../domain/money';
import { paymentMethodLabel } from '../../../domain/direct-debit';
import { createRouter } from '../../lib/create-app';
import { csvFile } from '../../lib/csv-file';
import { bearerAuth, csvContent, defineRoute, errorResponses } from '../../lib/openapi';
import { financeReaders, requireUser } from '../../lib/policy';
import type { AppEnv } from '../../lib/types';
import { signedInContext, type ViewerContext } from '../../lib/service-context';
import type { organizations } from '../../../db/schema';
import { AuditExportQuerySchema } from '../../schemas/audit';
import { DonationExportQuery } from '../../schemas/donations';
import { auditRows, auditWhere } from '../../services/audit/list';
import { type DonationCursor, donationRowsAfter } from '../../services/donations/export';
import { adminDonationsWhere, type DonationRow, paidBy } from '../../services/donations/list';
import { csvStream, raw, type Cell } from '../../services/reports/csv';
import { donationFilters, donorFilters, organizationFilters } from '../../services/reports/list-filters';
import { staffScope } from '../../services/reports/scope';
import { organizationRows } from '../../services/organizations/manage';
import { type Journal, type JournalLine, journalFor } from '../../services/finance/journal';
import { journalQuery } from '../../schemas/journal';
import { JOURNAL_TAX_RATE, type JournalFormat, providerFeeOf, XERO_JOURNAL_MAX_LINES } from '../../../domain/finance';
import { badRequest } from '../../lib/errors';
import { donorRows, type UserRow } from '../../services/users/manage';

type QuerySchema = NonNullable<NonNullable<RouteConfig['request']>['query']>;

/** A CSV download staff read (admins, organization admins and finance users), filtered by `query`. */
function csvExportRoute<P extends string, Q extends QuerySchema>(
  path: P,
  { summary, query, what, description }: { summary: string; query: Q; what: string; description: string },
) {
  return defineRoute({
    method: 'get',
    path,
    tags: ['Exports'],
    summary,
    security: bearerAuth,
    middleware: [financeReaders(`Only admins, organization admins and finance users can export ${what}`)],
    request: { query },
    responses: { 200: csvContent(description), ...errorResponses },
  });
}

/** A staff list's CSV at /exports/<name>.csv: the list's own filters and scope (`list`: its path under /api). */
const listExportRoute = <N extends string, Q extends QuerySchema>(
  name: N,
  list: string,
  query: Q,
  description: string,
) =>
  csvExportRoute(`/exports/${name}.csv`, {
    summary: `The filtered ${name} list as CSV (same filters and scope as GET /api${list})`,
    query,
    what: 'lists',
    description,
  });

const donationsRoute = listExportRoute(
  'donations',
  '/donations',
  DonationExportQuery,
  'Donations, UK dates, amounts in pounds',
);
const donorsRoute = listExportRoute('donors', '/users', donorFilters, 'Donors');
const organizationsRoute = listExportRoute('organizations', '/organizations', organizationFilters, 'Organizations');

const auditRoute = csvExportRoute('/exports/audit.csv', {
  summary: 'The filtered audit log as CSV (same filters and scope as GET /api/audit)',
  query: AuditExportQuerySchema,
  what: 'the audit log',
  description: 'Audit entries, newest first; changes as JSON',
});

const AUDIT_HEADER = [
  'When',
  'Actor',
  'Actor type',
  'Action',
  'Record type',
  'Record id',
  'Organization id',
  'Changes',
  'Note',
  'Request id',
];

const journalRoute = csvExportRoute('/exports/journal.csv', {
  summary:
    'Balanced double-entry journal of donations, fees and refunds per organization per London day (Xero or Sage import)',
  query: journalQuery,
  what: 'the journal',
  description: 'Manual journal lines, UK dates, amounts in pounds',
});

const pounds = (pence: number) => raw(penceToDecimal(pence));

/**
 * formatUkDate per row costs several Intl calls; London's offset is a whole hour, so every instant
 * in the same UTC hour has the same London day and one formatted value serves the whole hour.
 */
function ukDateCache(): (date: Date) => string {
  const cache = new Map<number, string>();
  return (date) => {
    const hour = Math.floor(date.getTime() / HOUR_MS);
    let text = cache.get(hour);
    if (text === undefined) {
      text = formatUkDate(date);
      if (cache.size > 50_000) cache.clear();
      cache.set(hour, text);
    }
    return text;
  };
}

/** Rows per database read while streaming: few reads (each may sort the filtered set), bounded memory. */
const EXPORT_PAGE = 2000;

const DONATION_HEADER = [
  'Date',
  'Amount (GBP)',
  'Refunded (GBP)',
  'Net (GBP)',
  'Gift Aid',
  'Type',
  'Status',
  'Source',
  'Payment method',
  'Payment reference',
  'Donor name',
  'Donor email',
  'Campaign',
  'Appeal',
  'Donation ID',
  // Last, so the columns people already map keep their places; "Net" above is net of refunds.
  'Fee (GBP)',
];

/** Gifts whose money came in: the others (failed, pending, abandoned, Bacs still processing) are worth nothing net, as the list's sums count them. */
const PAID = new Set<string>(PAID_DONATION_STATUSES);

function donationCells(r: DonationRow, ukDate: (date: Date) => string): Cell[] {
  const d = r.row;
  return [
    ukDate(d.date),
    pounds(d.amount),
    pounds(d.refundedAmount),
    pounds(PAID.has(d.status) ? d.amount - d.refundedAmount : 0),
    d.giftAid,
    d.type === 'monthly' ? 'Monthly' : 'One-off',
    d.status,
    d.source,
    paymentMethodLabel(paidBy(d), d.bankLast4, d.source),
    d.invoiceId ?? d.paymentIntentId ?? '',
    `${r.donorFirstName} ${r.donorLastName}`.trim(),
    r.donorEmail,
    r.campaignTitle,
    r.appealTitle ?? '',
    d.id,
    feeCell(providerFeeOf(d)),
  ];
}

/** Stripe's fee in pounds; empty while Stripe has not reported it (never an estimate). */
const feeCell = (pence: number | null): Cell => (pence === null ? '' : pounds(pence));

/** Email, phone and postal address: the same columns in the donors and the organizations files. */
const CONTACT_HEADER = ['Email', 'Phone', 'Address', 'City', 'County', 'Postcode', 'Country'];
type Contact = Record<'email' | 'phone' | 'address' | 'city' | 'province' | 'postalCode' | 'country', Cell>;
const contactCells = (r: Contact): Cell[] => [r.email, r.phone, r.address, r.city, r.province, r.postalCode, r.country];

const DONOR_HEADER = ['First name', 'Last name', ...CONTACT_HEADER, 'Type', 'Joined'];

const donorCells = (u: UserRow, ukDate: (date: Date) => string): Cell[] => [
  u.firstName,
  u.lastName,
  ...contactCells(u),
  u.type,
  ukDate(u.createdAt),
];

const ORGANIZATION_HEADER = [
  'Name',
  'Legal name',
  'Charity number',
  'Regulator',
  'HMRC reference',
  ...CONTACT_HEADER,
  'Created',
];

const organizationCells = (o: typeof organizations.$inferSelect): Cell[] => [
  o.name,
  o.legalName,
  o.charityNumber,
  o.regulator,
  o.hmrcReference,
  ...contactCells(o),
  formatUkDate(o.createdAt),
];

/** A staff list as CSV: read page by page with the list's own filters, in the viewer's scope. */
function staffListCsv<F extends object, R>(
  c: Context<AppEnv>,
  filters: F,
  file: {
    name: string;
    header: string[];
    rows: (ctx: ViewerContext, options: F & { offset: number; limit: number; count: false }) => Promise<{ rows: R[] }>;
    cells: (row: R) => Cell[];
  },
) {
  const viewer = requireUser(c.var.user);
  staffScope(viewer);
  const stream = csvStream(
    file.header,
    async (offset, limit) =>
      (await file.rows({ db: c.var.db, viewer }, { ...filters, offset, limit, count: false })).rows,
    file.cells,
    EXPORT_PAGE,
  );
  return csvFile(c, file.name, stream);
}

/** Xero's manual journal import template (its column names, asterisks marking the required ones). */
const XERO_JOURNAL_HEADER = [
  '*Narration',
  '*Date',
  'Description',
  '*AccountCode',
  '*TaxRate',
  '*Amount',
  'TrackingName1',
  'TrackingOption1',
];
/** Debit and credit columns, for Sage and other packages that map columns on import. */
const SAGE_JOURNAL_HEADER = ['Date', 'Reference', 'Nominal code', 'Details', 'Debit', 'Credit', 'Fund'];

const ukDay = (isoDay: string) => `${isoDay.slice(8, 10)}/${isoDay.slice(5, 7)}/${isoDay.slice(0, 4)}`;

function journalCells(format: JournalFormat, journal: Journal, line: JournalLine): Cell[] {
  const date = ukDay(journal.day);
  if (format === 'sage') {
    return [
      date,
      journal.reference,
      line.accountCode,
      line.description,
      line.amount > 0 ? pounds(line.amount) : '',
      line.amount < 0 ? pounds(-line.amount) : '',
      line.fund,
    ];
  }
  const narration = `${journal.title} ${journal.organizationName ? `${journal.organizationName} ` : ''}${date} ${journal.reference}`;
  return [
    narration,
    date,
    line.description,
    line.accountCode,
    JOURNAL_TAX_RATE,
    pounds(line.amount),
    'Fund',
    line.fund,
  ];
}

/** CSV exports of the admin lists, streamed page by page; scoped exactly like the lists. */
export const exportsRouter = createRouter()
  .openapi(donationsRoute, async (c) => {
    const viewer = requireUser(c.var.user);
    staffScope(viewer);
    // The OpenAPI schema documents the fields; the shared schema adds the cross-field range checks.
    const filters = donationFilters.parse(c.req.query());
    const where = adminDonationsWhere(viewer, filters);
    let cursor: DonationCursor | null = null;
    const ukDate = ukDateCache();
    const stream = csvStream(
      DONATION_HEADER,
      async (_offset, limit) => {
        const page = await donationRowsAfter(c.var.db, where, filters, cursor, limit);
        cursor = page.cursor;
        return page.rows;
      },
      (r) => donationCells(r, ukDate),
      EXPORT_PAGE,
    );
    return csvFile(c, 'donations', stream);
  })
  .openapi(donorsRoute, async (c) => {
    const ukDate = ukDateCache();
    return staffListCsv(c, c.req.valid('query'), {
      name: 'donors',
      header: DONOR_HEADER,
      rows: donorRows,
      cells: (u) => donorCells(u, ukDate),
    });
  })
  .openapi(organizationsRoute, async (c) =>
    staffListCsv(c, c.req.valid('query'), {
      name: 'organizations',
      header: ORGANIZATION_HEADER,
      rows: organizationRows,
      cells: organizationCells,
    }),
  )
  .openapi(auditRoute, async (c) => {
    const where = auditWhere(requireUser(c.var.user), c.req.valid('query'));
    const stream = csvStream(
      AUDIT_HEADER,
      (offset, limit) => auditRows(c.var.db, where, { offset, limit }),
      (a): Cell[] => [
        a.at.toISOString(),
        a.actorEmail ?? 'system',
        a.actorType,
        a.action,
        a.targetType,
        a.targetId,
        a.organizationId,
        JSON.stringify(a.changes ?? {}),
        a.note,
        a.requestId,
      ],
      EXPORT_PAGE,
    );
    return csvFile(c, 'audit', stream);
  })
  .openapi(journalRoute, async (c) => {
    const query = journalQuery.parse(c.req.query());
    // One row per fund per channel per day: small enough to build, then streamed out.
    const journals = await journalFor(signedInContext(c), query);
    const lines = journals.flatMap((journal) => journal.lines.map((line) => ({ journal, line })));
    // Xero refuses the whole file beyond its limit, after the finance person has mapped it: say so now.
    if (query.format === 'xero' && lines.length > XERO_JOURNAL_MAX_LINES) {
      throw badRequest(
        `to: the journal from ${ukDay(query.from)} to ${ukDay(query.to)} has ${lines.length} lines, and Xero imports at most ${XERO_JOURNAL_MAX_LINES} in one file; export fewer days at a time (or one organization)`,
      );
    }
    const stream = csvStream(
      query.format === 'sage' ? SAGE_JOURNAL_HEADER : XERO_JOURNAL_HEADER,
      async (offset, limit) => lines.slice(offset, offset + limit),
      ({ journal, line }) => journalCells(query.format, journal, line),
      EXPORT_PAGE,
    );
    return csvFile(c, 'journal', stream);
  });
