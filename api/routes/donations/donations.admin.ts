import { createRouter } from '../../lib/create-app';
import { sendReceipt } from '../../services/mail';
import { mailContextOf } from '../../services/mail/context';
import { bearerAuth, defineRoute, errorResponses, IdParams, jsonBody, jsonContent } from '../../lib/openapi';
import { isStaff, loadThenAuthorize, signedIn, staffOnly } from '../../lib/policy';
import { signedInContext } from '../../lib/service-context';
import { forbidden } from '../../lib/errors';
import { DonationSchema, GivingSummarySchema } from '../../schemas';
import { ManualDonationBody, ManualDonationUpdateBody } from '../../schemas/donations';
import { getDonation } from '../../services/donations/list';
import { createManualDonation, updateDonation } from '../../services/donations/manual';
import { myGivingSummary } from '../../services/donations/summary';

const summaryRoute = defineRoute({
  method: 'get',
  path: '/donations/summary',
  tags: ['Donations'],
  summary: 'The signed-in user’s giving, summed over every gift',
  security: bearerAuth,
  middleware: [signedIn()],
  responses: { 200: jsonContent(GivingSummarySchema, 'Totals in pence'), ...errorResponses },
});

const createDonationRoute = defineRoute({
  method: 'post',
  path: '/donations',
  tags: ['Donations'],
  summary: 'Record a gift received outside Stripe (staff)',
  security: bearerAuth,
  middleware: [staffOnly('Only admins and organization admins can record donations')],
  request: { body: jsonBody(ManualDonationBody) },
  responses: { 201: jsonContent(DonationSchema, 'Recorded'), ...errorResponses },
});

const getDonationRoute = defineRoute({
  method: 'get',
  path: '/donations/{id}',
  tags: ['Donations'],
  summary: 'One donation the caller may see',
  security: bearerAuth,
  middleware: [signedIn()],
  request: { params: IdParams },
  responses: { 200: jsonContent(DonationSchema, 'The donation'), ...errorResponses },
});

const updateDonationRoute = defineRoute({
  method: 'put',
  path: '/donations/{id}',
  tags: ['Donations'],
  summary: 'Edit a manual gift’s details (staff, within their organizations)',
  security: bearerAuth,
  middleware: [
    signedIn(),
    // Visibility and role before the body, so out-of-scope callers learn nothing from validation.
    loadThenAuthorize(getDonation, (viewer) => {
      if (!isStaff(viewer)) throw forbidden('Only admins and organization admins can edit donations');
    }).middleware,
  ],
  request: { params: IdParams, body: jsonBody(ManualDonationUpdateBody) },
  responses: { 200: jsonContent(DonationSchema, 'Updated'), ...errorResponses },
});

/** Staff writes and single reads of donations; lists are in donations.index.ts. */
export const donationsAdminRouter = createRouter()
  // Registered before /donations/{id} so "summary" is never read as an id.
  .openapi(summaryRoute, async (c) => c.json(await myGivingSummary(signedInContext(c)), 200))
  .openapi(createDonationRoute, async (c) => {
    const { send_receipt: sendReceiptNow, ...input } = c.req.valid('json');
    const created = await createManualDonation(signedInContext(c), input);
    if (sendReceiptNow) await sendReceipt(mailContextOf(c), created._id);
    return c.json(created, 201);
  })
  .openapi(getDonationRoute, async (c) => c.json(await getDonation(signedInContext(c), c.req.valid('param').id), 200))
  .openapi(updateDonationRoute, async (c) =>
    c.json(await updateDonation(signedInContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );
