import { z } from '@hono/zod-openapi';
import { GIFT_AID_CLAIM_STATUSES, GIFT_AID_DECLARATION_METHODS, isIsoDay, londonMidnight } from '../../../domain';
import { createRouter } from '../../lib/create-app';
import { notFound } from '../../lib/errors';
import { bearerAuth, defineRoute, errorResponses, jsonContent } from '../../lib/openapi';
import { canManageOrganization, financeReaders, requireUser, signedIn } from '../../lib/policy';
import {
  cancelDonorDeclarations,
  claimSchedule,
  correctDeclaration,
  claimScope,
  createClaim,
  getClaim,
  giftAidSummary,
  listAdjustments,
  listClaims,
  listDeclarationsForReview,
  listDonorDeclarations,
  listEligibleGifts,
  parseGiftAidDetails,
  recordOfflineDeclaration,
  toDeclarationDto,
  updateClaim,
  updateDonorDetails,
  verifyOfflineGift,
} from '../../services/gift-aid';

import { parseId } from '../../../db/ids';
import { giftAidDeclarations } from '../../../db/schema';
import { eq } from 'drizzle-orm';

const text = (field: string, max: number) => z.string({ error: `${field}: must be text` }).max(max, `${field}: too long`);

/** Donor details as HMRC's schedule needs them; the domain rule (checkGiftAidDetails) checks the rest. */
export const GiftAidDetailsBody = z.object({
  title: text('title', 100).nullish(),
  first_name: text('first_name', 200),
  last_name: text('last_name', 200),
  house: text('house', 200),
  address: text('address', 400).nullish(),
  postcode: text('postcode', 40),
});

const DeclarationSchema = z
  .object({
    _id: z.string(),
    version: z.number().int(),
    title: z.string().nullable(),
    first_name: z.string(),
    last_name: z.string(),
    house: z.string(),
    address: z.string(),
    postcode: z.string(),
    declaration: z.string(),
    method: z.enum(GIFT_AID_DECLARATION_METHODS),
    covers_past: z.boolean(),
    covers_future: z.boolean(),
    declared_at: z.string(),
    cancelled_at: z.string().nullable(),
    replaced_by: z.string().nullable(),
    needs_review: z.boolean(),
    organization_id: z.string().nullable(),
  })
  .openapi('GiftAidDeclaration');

const MyDeclarationsSchema = z.object({ active: z.boolean(), declarations: z.array(DeclarationSchema) }).openapi('MyGiftAid');

const ClaimSchema = z
  .object({
    _id: z.string(),
    organization: z.object({ label: z.string(), value: z.string() }),
    charity_reference: z.string(),
    status: z.enum(GIFT_AID_CLAIM_STATUSES),
    hmrc_reference: z.string().nullable(),
    aggregated: z.boolean(),
    date_from: z.string().nullable(),
    date_to: z.string().nullable(),
    earliest_date: z.string(),
    latest_date: z.string(),
    row_count: z.number().int(),
    gift_count: z.number().int(),
    total: z.number().int(),
    gift_aid: z.number().int(),
    adjustment: z.number().int(),
    net_claim: z.number().int(),
    accounting_period_end: z.string(),
    retain_until: z.string(),
    created_at: z.string(),
    submitted_at: z.string().nullable(),
    paid_at: z.string().nullable(),
  })
  .openapi('GiftAidClaim');

const EligibleSchema = z
  .object({
    items: z.array(
      z.object({
        _id: z.string(),
        date: z.string(),
        amount: z.number().int(),
        gift_aid: z.number().int(),
        source: z.string(),
        type: z.string(),
        organization_id: z.string(),
        campaign: z.string(),
        donor: z.object({ title: z.string().nullable(), first_name: z.string(), last_name: z.string(), house: z.string(), postcode: z.string() }),
        declaration_id: z.string(),
        declaration_method: z.string(),
      }),
    ),
    count: z.number().int(),
    total: z.number().int(),
    gift_aid: z.number().int(),
    shown: z.number().int(),
  })
  .openapi('GiftAidEligible');

const AdjustmentSchema = z
  .object({
    _id: z.string(),
    donation_id: z.string(),
    claim_id: z.string(),
    organization_id: z.string(),
    gift_aid: z.number().int().openapi({ description: 'Pence: over-claimed Gift Aid (refund), or negative where a failed refund takes an unreported one back (refund_failed)' }),
    reason: z.string().openapi({ example: 'refund', description: 'refund or refund_failed' }),
    settled_claim_id: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('GiftAidAdjustment');

const SummarySchema = z
  .object({
    claimed: z.number().int(),
    paid: z.number().int(),
    to_claim: z.number().int(),
    adjustments_due: z.number().int(),
    eligible_gifts: z.number().int(),
  })
  .openapi('GiftAidSummary');

const day = (field: string) =>
  z
    .string()
    .max(10, `${field}: enter a date like 2026-04-06`)
    .refine((v) => v === '' || isIsoDay(v), `${field}: enter a date like 2026-04-06`)
    .optional();

const orgQuery = z.object({ organization_id: z.string().max(64).optional() });
const eligibleQuery = orgQuery.extend({ from: day('from'), to: day('to') });
const idParam = z.object({ id: z.string().min(1).max(64).openapi({ param: { name: 'id', in: 'path' } }) });

const tags = ['Gift Aid'];
const security = bearerAuth;

/** Checked before the request is validated, so a donor learns nothing but 403. */
const staff = financeReaders('Only admins, organization admins and finance users can see Gift Aid claims');
const own = signedIn();

const summaryRoute = defineRoute({
  method: 'get',
  path: '/gift-aid/summary',
  tags,
  security,
  middleware: [staff] as const,
  summary: 'Gift Aid claimed, paid and still to claim (pence) for your organizations',
  responses: { 200: jsonContent(SummarySchema, 'Figures for the dashboard overview'), ...errorResponses },
});

const eligibleRoute = defineRoute({
  method: 'get',
  path: '/gift-aid/eligible',
  tags,
  security,
  middleware: [staff] as const,
  summary: 'Eligible gifts not yet claimed, oldest first (up to 1,000), with the count and totals of all',
  request: { query: eligibleQuery },
  responses: { 200: jsonContent(EligibleSchema, 'Eligible gifts'), ...errorResponses },
});

const listClaimsRoute = defineRoute({
  method: 'get',
  path: '/gift-aid/claims',
  tags,
  security,
  middleware: [staff] as const,
  summary: 'Claims, newest first',
  request: { query: orgQuery },
  responses: { 200: jsonContent(z.array(ClaimSchema), 'Claims'), ...errorResponses },
});

const createClaimRoute = defineRoute({
  method: 'post',
  path: '/gift-aid/claims',
  tags,
  security,
  middleware: [staff] as const,
  summary: "Claim the organization's eligible gifts (at most 1,000 schedule lines), marking them claimed",
  request: {
    body: {
      content: {
        'application/json': {
          schema: z.object({
            organization_id: z.string({ error: 'organization_id: required' }).min(1, 'organization_id: required').max(64),
            from: day('from'),
            to: day('to'),
            aggregate: z.boolean({ error: 'aggregate: must be true or false' }).optional(),
          }),
        },
      },
      required: true,
    },
  },
  responses: {
    201: jsonContent(ClaimSchema, 'The new draft claim'),
    ...errorResponses,
  },
});

const getClaimRoute = defineRoute({
  method: 'get',
  path: '/gift-aid/claims/{id}',
  tags,
  security,
  middleware: [staff] as const,
  summary: 'One claim',
  request: { params: idParam },
  responses: { 200: jsonContent(ClaimSchema, 'The claim'), ...errorResponses },
});

const updateClaimRoute = defineRoute({
  method: 'put',
  path: '/gift-aid/claims/{id}',
  tags,
  security,
  middleware: [staff] as const,
  summary: "Mark a claim submitted (with HMRC's reference) or paid",
  request: {
    params: idParam,
    body: {
      content: {
        'application/json': {
          schema: z.object({
            status: z.enum(GIFT_AID_CLAIM_STATUSES, { error: 'status: one of draft, submitted, paid' }),
            hmrc_reference: z
              .string()
              .trim()
              .max(40, 'hmrc_reference: at most 40 characters')
              .regex(/^[A-Za-z0-9][A-Za-z0-9 /-]*$/, 'hmrc_reference: letters, digits, spaces, / and - only')
              .nullish(),
          }),
        },
      },
      required: true,
    },
  },
  responses: { 200: jsonContent(ClaimSchema, 'The updated claim'), ...errorResponses },
});

const scheduleRoute = defineRoute({
  method: 'get',
  path: '/gift-aid/claims/{id}/schedule.csv',
  tags,
  security,
  middleware: [staff] as const,
  summary: "The claim's HMRC schedule as CSV (same rows on every download)",
  request: { params: idParam },
  responses: {
    200: { content: { 'text/csv': { schema: z.string() } }, description: 'Title, First name, Last name, House name or number, Postcode, Aggregated donations, Sponsored event, Donation date, Amount' },
    ...errorResponses,
  },
});

const adjustmentsRoute = defineRoute({
  method: 'get',
  path: '/gift-aid/adjustments',
  tags,
  security,
  middleware: [staff] as const,
  summary: 'Gift Aid over-claimed on refunded gifts, and the claim that reports each',
  request: { query: orgQuery },
  responses: { 200: jsonContent(z.array(AdjustmentSchema), 'Adjustments'), ...errorResponses },
});

const reviewRoute = defineRoute({
  method: 'get',
  path: '/gift-aid/declarations/review',
  tags,
  security,
  middleware: [staff] as const,
  summary: 'Migrated declarations whose name or address split needs a person to check',
  responses: { 200: jsonContent(z.array(DeclarationSchema), 'Declarations to review'), ...errorResponses },
});

const correctRoute = defineRoute({
  method: 'put',
  path: '/gift-aid/declarations/{id}',
  tags,
  security,
  middleware: [staff] as const,
  summary: "Correct a declaration flagged for review (admins; org admins their organization's)",
  request: { params: idParam, body: { content: { 'application/json': { schema: GiftAidDetailsBody } }, required: true } },
  responses: { 200: jsonContent(DeclarationSchema, 'The corrected declaration'), ...errorResponses },
});

const recordRoute = defineRoute({
  method: 'post',
  path: '/gift-aid/declarations',
  tags,
  security,
  middleware: [staff] as const,
  summary: 'Record a declaration a donor made on paper or by phone',
  request: {
    body: {
      content: {
        'application/json': {
          schema: GiftAidDetailsBody.extend({
            donor_id: z.string({ error: 'donor_id: required' }).min(1, 'donor_id: required').max(64),
            organization_id: z.string({ error: 'organization_id: required' }).min(1, 'organization_id: required').max(64),
            covers_past: z.boolean({ error: 'covers_past: must be true or false' }),
            covers_future: z.boolean({ error: 'covers_future: must be true or false' }),
            declared_on: z.string({ error: 'declared_on: enter a date like 2026-04-06' }).refine(isIsoDay, 'declared_on: enter a date like 2026-04-06'),
          }),
        },
      },
      required: true,
    },
  },
  responses: { 201: jsonContent(DeclarationSchema, 'The recorded declaration'), ...errorResponses },
});

const verifyRoute = defineRoute({
  method: 'post',
  path: '/gift-aid/donations/{id}/verify',
  tags,
  security,
  middleware: [staff] as const,
  summary: "Mark a hand-recorded gift as Gift Aid after checking the donor's declaration",
  request: { params: idParam },
  responses: {
    200: jsonContent(z.object({ _id: z.string(), gift_aid: z.literal(true), declaration_id: z.string() }), 'The gift is now eligible'),
    ...errorResponses,
  },
});

const myRoute = defineRoute({
  method: 'get',
  path: '/gift-aid/me',
  tags,
  security,
  middleware: [own] as const,
  summary: 'Your Gift Aid declarations, every version',
  responses: { 200: jsonContent(MyDeclarationsSchema, 'Your declarations'), ...errorResponses },
});

const myUpdateRoute = defineRoute({
  method: 'put',
  path: '/gift-aid/me',
  tags,
  security,
  middleware: [own] as const,
  summary: 'New name or address: a new version of each declaration in force',
  request: { body: { content: { 'application/json': { schema: GiftAidDetailsBody } }, required: true } },
  responses: { 200: jsonContent(MyDeclarationsSchema, 'Your declarations'), ...errorResponses },
});

const myCancelRoute = defineRoute({
  method: 'post',
  path: '/gift-aid/me/cancel',
  tags,
  security,
  middleware: [own] as const,
  summary: 'Cancel your Gift Aid declarations from now (they stay on record with the date they ended)',
  responses: { 200: jsonContent(MyDeclarationsSchema, 'Your declarations'), ...errorResponses },
});

async function myDeclarations(db: Parameters<typeof listDonorDeclarations>[0], donorId: string) {
  const rows = await listDonorDeclarations(db, donorId);
  return { active: rows.some((r) => !r.cancelledAt && !r.replacedBy), declarations: rows.map(toDeclarationDto) };
}

export const giftAidRouter = createRouter()
  .openapi(summaryRoute, async (c) => c.json(await giftAidSummary(c.var.db, requireUser(c.var.user)), 200))
  .openapi(eligibleRoute, async (c) => c.json(await listEligibleGifts(c.var.db, requireUser(c.var.user), c.req.valid('query')), 200))
  .openapi(listClaimsRoute, async (c) => c.json(await listClaims(c.var.db, requireUser(c.var.user), c.req.valid('query').organization_id), 200))
  .openapi(createClaimRoute, async (c) => c.json(await createClaim(c.var.db, requireUser(c.var.user), c.req.valid('json'), new Date(), c.var.requestId), 201))
  .openapi(getClaimRoute, async (c) => c.json(await getClaim(c.var.db, requireUser(c.var.user), c.req.valid('param').id), 200))
  .openapi(updateClaimRoute, async (c) =>
    c.json(await updateClaim(c.var.db, requireUser(c.var.user), c.req.valid('param').id, c.req.valid('json'), new Date(), c.var.requestId), 200),
  )
  .openapi(scheduleRoute, async (c) => {
    const { claim, csv } = await claimSchedule(c.var.db, requireUser(c.var.user), c.req.valid('param').id);
    c.header('Content-Disposition', `attachment; filename="gift-aid-claim-${claim.earliest_date.slice(0, 10)}-${claim._id.slice(0, 8)}.csv"`);
    c.header('X-Earliest-Donation-Date', claim.earliest_date);
    c.header('X-Claim-Total', String(claim.total));
    c.header('Cache-Control', 'no-store');
    return c.body(csv, 200, { 'Content-Type': 'text/csv; charset=utf-8' });
  })
  .openapi(adjustmentsRoute, async (c) => c.json(await listAdjustments(c.var.db, requireUser(c.var.user), c.req.valid('query').organization_id), 200))
  .openapi(reviewRoute, async (c) => {
    const viewer = requireUser(c.var.user);
    const rows = await listDeclarationsForReview(c.var.db, claimScope(viewer));
    return c.json(rows.map(toDeclarationDto), 200);
  })
  .openapi(correctRoute, async (c) => {
    const id = parseId(c.req.valid('param').id);
    const viewer = requireUser(c.var.user);
    const [existing] = id
      ? await c.var.db
          .select({ id: giftAidDeclarations.id, organizationId: giftAidDeclarations.organizationId })
          .from(giftAidDeclarations)
          .where(eq(giftAidDeclarations.id, id))
          .limit(1)
      : [];
    // Org admins review and correct their own organization's declarations only (the review list is scoped the same way).
    if (!existing || !canManageOrganization(viewer, existing.organizationId)) throw notFound('Declaration not found');
    const row = await correctDeclaration(c.var.db, existing.id, parseGiftAidDetails(c.req.valid('json')));
    return c.json(toDeclarationDto(row!), 200);
  })
  .openapi(recordRoute, async (c) => {
    const viewer = requireUser(c.var.user);
    const body = c.req.valid('json');
    const details = parseGiftAidDetails(body);
    const row = await recordOfflineDeclaration(
      c.var.db,
      c.var.config,
      viewer,
      { ...body, details },
      londonMidnight(body.declared_on),
    );
    return c.json(toDeclarationDto(row), 201);
  })
  .openapi(verifyRoute, async (c) => c.json(await verifyOfflineGift(c.var.db, requireUser(c.var.user), c.req.valid('param').id), 200))
  .openapi(myRoute, async (c) => c.json(await myDeclarations(c.var.db, requireUser(c.var.user).id), 200))
  .openapi(myUpdateRoute, async (c) => {
    const user = requireUser(c.var.user);
    await updateDonorDetails(c.var.db, user.id, parseGiftAidDetails(c.req.valid('json')));
    return c.json(await myDeclarations(c.var.db, user.id), 200);
  })
  .openapi(myCancelRoute, async (c) => {
    const user = requireUser(c.var.user);
    await cancelDonorDeclarations(c.var.db, user.id);
    return c.json(await myDeclarations(c.var.db, user.id), 200);
  });
