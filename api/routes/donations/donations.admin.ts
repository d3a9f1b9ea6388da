import { createRouter } from '../../lib/create-app';
import { sendReceipt } from '../../services/mail';
import { mailContextOf } from '../../services/mail/context';
import { bearerAuth, createdResponses, IdParams, jsonBody, okResponses, routesOf } from '../../lib/openapi';
import { isStaff, loadThenAuthorize, signedIn, staffOnly } from '../../lib/policy';
import { signedInContext } from '../../lib/service-context';
import { forbidden } from '../../lib/errors';
import { DonationSchema, GivingSummarySchema } from '../../schemas';
import { ManualDonationBody, ManualDonationUpdateBody } from '../../schemas/donations';
import { getDonation } from '../../services/donations/list';
import { createManualDonation, updateDonation } from '../../services/donations/manual';
import { myGivingSummary } from '../../services/donations/summary';

const donations = routesOf({ tags: ['Donations'], security: bearerAuth });

const summaryRoute = donations.get('/donations/summary', {
  summary: 'The signed-in user’s giving, summed over every gift',
  middleware: [signedIn()],
  responses: okResponses(GivingSummarySchema, 'Totals in pence'),
});

const createDonationRoute = donations.post('/donations', {
  summary: 'Record a gift received outside Stripe (staff)',
  middleware: [staffOnly('Only admins and organization admins can record donations')],
  request: { body: jsonBody(ManualDonationBody) },
  responses: createdResponses(DonationSchema, 'Recorded'),
});

const getDonationRoute = donations.get('/donations/{id}', {
  summary: 'One donation the caller may see',
  middleware: [signedIn()],
  request: { params: IdParams },
  responses: okResponses(DonationSchema, 'The donation'),
});

const updateDonationRoute = donations.put('/donations/{id}', {
  summary: 'Edit a manual gift’s details (staff, within their organizations)',
  middleware: [
    signedIn(),
    // Visibility and role before the body, so out-of-scope callers learn nothing from validation.
    loadThenAuthorize(getDonation, (viewer) => {
      if (!isStaff(viewer)) throw forbidden('Only admins and organization admins can edit donations');
    }).middleware,
  ],
  request: { params: IdParams, body: jsonBody(ManualDonationUpdateBody) },
  responses: okResponses(DonationSchema, 'Updated'),
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
