import { z } from '@hono/zod-openapi';
import { createRouter } from '../../lib/create-app';
import { bearerAuth, defineRoute, errorResponses, jsonContent } from '../../lib/openapi';
import { financeReaders, requireUser, signedIn } from '../../lib/policy';
import { signedInContext } from '../../lib/service-context';
import {
  AdjustmentSchema,
  ClaimSchema,
  ClaimWithGiftsSchema,
  ClaimUpdateBody,
  ConfirmationBody,
  CoveringQuery,
  CoveringSchema,
  DeclarationSchema,
  DonorDeclarationsQuery,
  EligibleQuery,
  EligibleSchema,
  GasdsClaimBody,
  GasdsQuery,
  GasdsSchema,
  GiftAidDetailsBody,
  IdParam as idParam,
  MyDeclarationsSchema,
  NewClaimBody,
  OrgQuery as orgQuery,
  PaymentBody,
  RecordDeclarationBody,
  RejectClaimBody,
  ResubmitClaimBody,
  SummarySchema,
  VerifyResultSchema,
  VoidClaimBody,
} from '../../schemas/gift-aid';
import {
  claimScope,
  cancelDeclaration,
  cancelDonorDeclarations,
  claimGifts,
  claimSchedule,
  claimScheduleOds,
  ODS_MIME,
  confirmOralDeclaration,
  correctFlaggedDeclaration,
  createClaim,
  createGasdsClaim,
  declarationCovering,
  gasdsPosition,
  getClaim,
  giftAidSummary,
  listAdjustments,
  listClaims,
  listDeclarationsForDonor,
  listDeclarationsForReview,
  listDonorDeclarations,
  listEligibleGifts,
  parseGiftAidDetails,
  recordOfflineDeclaration,
  recordPayment,
  rejectClaim,
  resubmitClaim,
  toDeclarationDto,
  updateClaim,
  updateDonorDetails,
  verifyOfflineGift,
  voidClaim,
} from '../../services/gift-aid';

export { GiftAidDetailsBody };

const body = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } }, required: true });

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
  request: { query: EligibleQuery },
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
          schema: NewClaimBody,
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
  summary: "Mark a claim submitted (with HMRC's reference), resubmitted after a rejection, or paid",
  request: {
    params: idParam,
    body: {
      content: {
        'application/json': {
          schema: ClaimUpdateBody,
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
    200: {
      content: { 'text/csv': { schema: z.string() } },
      description:
        'Title, First name, Last name, House name or number, Postcode, Aggregated donations, Sponsored event, Donation date, Amount',
    },
    ...errorResponses,
  },
});

const scheduleOdsRoute = defineRoute({
  method: 'get',
  path: '/gift-aid/claims/{id}/schedule.ods',
  tags,
  security,
  middleware: [staff] as const,
  summary:
    "The claim's HMRC schedule as an OpenDocument spreadsheet: dates typed as dates, amounts as numbers (same bytes on every download)",
  request: { params: idParam },
  responses: {
    200: {
      content: { [ODS_MIME]: { schema: z.string().openapi({ format: 'binary' }) } },
      description: 'The schedule spreadsheet (.ods)',
    },
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
  summary: "Correct a declaration flagged for review (admins; org admins and finance their organization's)",
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: GiftAidDetailsBody } }, required: true },
  },
  responses: { 200: jsonContent(DeclarationSchema, 'The corrected declaration'), ...errorResponses },
});

const recordRoute = defineRoute({
  method: 'post',
  path: '/gift-aid/declarations',
  tags,
  security,
  middleware: [staff] as const,
  summary:
    'Record a declaration a donor made on paper or orally (an oral one counts once its written confirmation is sent)',
  request: {
    body: {
      content: {
        'application/json': {
          schema: RecordDeclarationBody,
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
    200: jsonContent(VerifyResultSchema, 'The gift is now eligible'),
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

const claimGiftsRoute = defineRoute({
  method: 'get',
  path: '/gift-aid/claims/{id}/gifts',
  tags,
  security,
  middleware: [staff] as const,
  summary: "A claim's gifts by schedule line (a void claim released its gifts and lists none)",
  request: { params: idParam },
  responses: { 200: jsonContent(ClaimWithGiftsSchema, 'The claim and its gifts'), ...errorResponses },
});

const voidClaimRoute = defineRoute({
  method: 'post',
  path: '/gift-aid/claims/{id}/void',
  tags,
  security,
  middleware: [staff] as const,
  summary: 'Void a draft claim: its gifts become eligible again; the claim and its schedule stay on record',
  request: { params: idParam, body: body(VoidClaimBody) },
  responses: { 200: jsonContent(ClaimSchema, 'The void claim'), ...errorResponses },
});

const rejectClaimRoute = defineRoute({
  method: 'post',
  path: '/gift-aid/claims/{id}/reject',
  tags,
  security,
  middleware: [staff] as const,
  summary: "Mark a submitted claim rejected by HMRC, with HMRC's reason",
  request: { params: idParam, body: body(RejectClaimBody) },
  responses: { 200: jsonContent(ClaimSchema, 'The rejected claim'), ...errorResponses },
});

const resubmitClaimRoute = defineRoute({
  method: 'post',
  path: '/gift-aid/claims/{id}/resubmit',
  tags,
  security,
  middleware: [staff] as const,
  summary: "Resubmit a rejected claim with HMRC's new reference",
  request: { params: idParam, body: body(ResubmitClaimBody) },
  responses: { 200: jsonContent(ClaimSchema, 'The submitted claim'), ...errorResponses },
});

const paymentRoute = defineRoute({
  method: 'post',
  path: '/gift-aid/claims/{id}/payment',
  tags,
  security,
  middleware: [staff] as const,
  summary: "Record HMRC's payment of a submitted claim (pence, day); a difference from the net claim needs a note",
  request: { params: idParam, body: body(PaymentBody) },
  responses: { 200: jsonContent(ClaimSchema, 'The paid claim'), ...errorResponses },
});

const donorDeclarationsRoute = defineRoute({
  method: 'get',
  path: '/gift-aid/declarations',
  tags,
  security,
  middleware: [staff] as const,
  summary: "A donor's declarations, every version (organization admins: those to their organizations)",
  request: { query: DonorDeclarationsQuery },
  responses: { 200: jsonContent(z.array(DeclarationSchema), 'Declarations, newest first'), ...errorResponses },
});

const coveringRoute = defineRoute({
  method: 'get',
  path: '/gift-aid/declarations/covering',
  tags,
  security,
  middleware: [staff] as const,
  summary:
    "Whether a donor's declaration to an organization covers a gift on a day (batch entry's Gift Aid check), and if not why",
  request: { query: CoveringQuery },
  responses: {
    200: jsonContent(CoveringSchema, 'The covering declaration, or the reason there is none'),
    ...errorResponses,
  },
});

const cancelDeclarationRoute = defineRoute({
  method: 'post',
  path: '/gift-aid/declarations/{id}/cancel',
  tags,
  security,
  middleware: [staff] as const,
  summary: 'Cancel a declaration from now (an oral one within 30 days of its confirmation: from the day it was made)',
  request: { params: idParam },
  responses: { 200: jsonContent(DeclarationSchema, 'The cancelled declaration'), ...errorResponses },
});

const confirmDeclarationRoute = defineRoute({
  method: 'post',
  path: '/gift-aid/declarations/{id}/confirmation',
  tags,
  security,
  middleware: [staff] as const,
  summary: 'Send (by email) or record (by post, sent_on) the written confirmation of an oral declaration',
  request: { params: idParam, body: body(ConfirmationBody) },
  responses: { 200: jsonContent(DeclarationSchema, 'The confirmed declaration'), ...errorResponses },
});

const gasdsRoute = defineRoute({
  method: 'get',
  path: '/gift-aid/gasds',
  tags,
  security,
  middleware: [staff] as const,
  summary: 'Small Donations Scheme: what can be claimed for an organization and tax year, with the caps that limit it',
  request: { query: GasdsQuery },
  responses: { 200: jsonContent(GasdsSchema, 'The GASDS position'), ...errorResponses },
});

const gasdsClaimRoute = defineRoute({
  method: 'post',
  path: '/gift-aid/gasds',
  tags,
  security,
  middleware: [staff] as const,
  summary: 'Record a Small Donations Scheme claim (default: all that the caps allow); its gifts are marked with it',
  request: { body: body(GasdsClaimBody) },
  responses: { 201: jsonContent(GasdsSchema, 'The GASDS position after the claim'), ...errorResponses },
});

async function myDeclarations(db: Parameters<typeof listDonorDeclarations>[0], donorId: string) {
  const rows = await listDonorDeclarations(db, donorId);
  return { active: rows.some((r) => !r.cancelledAt && !r.replacedBy), declarations: rows.map(toDeclarationDto) };
}

export const giftAidRouter = createRouter()
  .openapi(summaryRoute, async (c) => c.json(await giftAidSummary(signedInContext(c)), 200))
  .openapi(eligibleRoute, async (c) => c.json(await listEligibleGifts(signedInContext(c), c.req.valid('query')), 200))
  .openapi(listClaimsRoute, async (c) =>
    c.json(await listClaims(signedInContext(c), c.req.valid('query').organization_id), 200),
  )
  .openapi(createClaimRoute, async (c) => c.json(await createClaim(signedInContext(c), c.req.valid('json')), 201))
  .openapi(getClaimRoute, async (c) => c.json(await getClaim(signedInContext(c), c.req.valid('param').id), 200))
  .openapi(updateClaimRoute, async (c) =>
    c.json(await updateClaim(signedInContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(claimGiftsRoute, async (c) => c.json(await claimGifts(signedInContext(c), c.req.valid('param').id), 200))
  .openapi(voidClaimRoute, async (c) =>
    c.json(await voidClaim(signedInContext(c), c.req.valid('param').id, c.req.valid('json').reason), 200),
  )
  .openapi(rejectClaimRoute, async (c) =>
    c.json(await rejectClaim(signedInContext(c), c.req.valid('param').id, c.req.valid('json').reason), 200),
  )
  .openapi(resubmitClaimRoute, async (c) =>
    c.json(await resubmitClaim(signedInContext(c), c.req.valid('param').id, c.req.valid('json').hmrc_reference), 200),
  )
  .openapi(paymentRoute, async (c) =>
    c.json(await recordPayment(signedInContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(scheduleRoute, async (c) => {
    const { claim, csv } = await claimSchedule(signedInContext(c), c.req.valid('param').id);
    c.header(
      'Content-Disposition',
      `attachment; filename="gift-aid-claim-${claim.earliest_date.slice(0, 10)}-${claim._id.slice(0, 8)}.csv"`,
    );
    c.header('X-Earliest-Donation-Date', claim.earliest_date);
    c.header('X-Claim-Total', String(claim.total));
    c.header('Cache-Control', 'no-store');
    return c.body(csv, 200, { 'Content-Type': 'text/csv; charset=utf-8' });
  })
  .openapi(scheduleOdsRoute, async (c) => {
    const { claim, ods } = await claimScheduleOds(signedInContext(c), c.req.valid('param').id);
    c.header(
      'Content-Disposition',
      `attachment; filename="gift-aid-claim-${claim.earliest_date.slice(0, 10)}-${claim._id.slice(0, 8)}.ods"`,
    );
    c.header('Cache-Control', 'no-store');
    return c.body(ods.buffer as ArrayBuffer, 200, { 'Content-Type': ODS_MIME });
  })
  .openapi(adjustmentsRoute, async (c) =>
    c.json(await listAdjustments(signedInContext(c), c.req.valid('query').organization_id), 200),
  )
  .openapi(coveringRoute, async (c) => {
    const answer = await declarationCovering(signedInContext(c), c.req.valid('query'));
    return c.json({ ...answer, declaration: answer.declaration ? toDeclarationDto(answer.declaration) : null }, 200);
  })
  .openapi(reviewRoute, async (c) => {
    const viewer = requireUser(c.var.user);
    const rows = await listDeclarationsForReview(c.var.db, claimScope(viewer));
    return c.json(rows.map(toDeclarationDto), 200);
  })
  .openapi(correctRoute, async (c) => {
    const row = await correctFlaggedDeclaration(
      signedInContext(c),
      c.req.valid('param').id,
      parseGiftAidDetails(c.req.valid('json')),
    );
    return c.json(toDeclarationDto(row), 200);
  })
  .openapi(donorDeclarationsRoute, async (c) =>
    c.json(
      (await listDeclarationsForDonor(signedInContext(c), c.req.valid('query').donor_id)).map(toDeclarationDto),
      200,
    ),
  )
  .openapi(recordRoute, async (c) => {
    const input = c.req.valid('json');
    const details = parseGiftAidDetails(input, '', { overseas: input.overseas === true });
    const row = await recordOfflineDeclaration(signedInContext(c), { ...input, details });
    return c.json(toDeclarationDto(row), 201);
  })
  .openapi(cancelDeclarationRoute, async (c) =>
    c.json(toDeclarationDto(await cancelDeclaration(signedInContext(c), c.req.valid('param').id)), 200),
  )
  .openapi(confirmDeclarationRoute, async (c) =>
    c.json(
      toDeclarationDto(await confirmOralDeclaration(signedInContext(c), c.req.valid('param').id, c.req.valid('json'))),
      200,
    ),
  )
  .openapi(gasdsRoute, async (c) => c.json(await gasdsPosition(signedInContext(c), c.req.valid('query')), 200))
  .openapi(gasdsClaimRoute, async (c) => c.json(await createGasdsClaim(signedInContext(c), c.req.valid('json')), 201))
  .openapi(verifyRoute, async (c) => c.json(await verifyOfflineGift(signedInContext(c), c.req.valid('param').id), 200))
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
