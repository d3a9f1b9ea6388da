import { createRouter } from '../../lib/create-app';
import { bearerAuth, errorResponses, IdParams, jsonBody, jsonContent, okResponses, routesOf } from '../../lib/openapi';
import { financeReaders, loadThenAuthorize, signedIn } from '../../lib/policy';
import { DonationStorySchema } from '../../schemas/donation-story';
import { RefundBodySchema, RefundHeaders, RefundResultSchema } from '../../schemas/refunds';
import { donationStory } from '../../services/donations/story';
import { resendReceipt } from '../../services/donations/resend-receipt';
import { ReceiptResentSchema } from '../../schemas/donations';
import { loadGiftInScope, refundDonation } from '../../services/reversals/refund';
import { signedInContext } from '../../lib/service-context';

const donations = routesOf({ tags: ['Donations'], security: bearerAuth });

const refundRoute = donations.post('/donations/{id}/refund', {
  summary:
    'Refund a card gift through Stripe, or reverse a gift recorded by hand (admins; org admins and finance in their organizations)',
  description:
    'Card gifts: a Stripe Refund (reasons requested_by_customer, duplicate, fraudulent, other), recorded from Stripe’s answer and its webhook exactly once. ' +
    'Offline gifts (manual, batch): a reversal row at once (bounced_cheque, entered_in_error, returned_to_donor). ' +
    'Omit amount to refund everything that remains. Send an Idempotency-Key header to make a retried request one refund.',
  middleware: [
    financeReaders('Only admins, organization admins and finance users can refund gifts'),
    // Scope before the body, so a caller outside the gift's organization learns nothing from validation.
    loadThenAuthorize(loadGiftInScope).middleware,
  ],
  request: {
    params: IdParams,
    headers: RefundHeaders,
    body: jsonBody(RefundBodySchema),
  },
  responses: {
    201: jsonContent(RefundResultSchema, 'Recorded (offline) or asked of Stripe and recorded'),
    200: jsonContent(RefundResultSchema, 'The same Idempotency-Key again: the first answer'),
    ...errorResponses,
  },
});

const storyRoute = donations.get('/donations/{id}/story', {
  summary:
    'One gift’s whole story: payment, Gift Aid, refunds, reversals, disputes, receipt, audit history and the actions that apply',
  middleware: [financeReaders('Only admins, organization admins and finance users can see a donation’s story')],
  request: { params: IdParams },
  responses: okResponses(DonationStorySchema, 'The story'),
});

const receiptRoute = donations.post('/donations/{id}/receipt', {
  summary: 'Email a paid gift’s receipt again (its donor; admins, organization admins and finance in its organization)',
  description:
    'The receipt goes to the donor’s email address on file. At most once per gift every 10 minutes (429 with Retry-After); ' +
    '409 for a gift not paid, refunded in full, or whose donor has no email address. Copies staff ask for are in the audit log.',
  middleware: [signedIn()],
  request: { params: IdParams },
  responses: okResponses(ReceiptResentSchema, 'The receipt was emailed again'),
});

/** A gift's back-office page: its story, the refund action, and a copy of its receipt (also for its donor). */
export const donationsRefundRouter = createRouter()
  .openapi(storyRoute, async (c) => c.json(await donationStory(signedInContext(c), c.req.valid('param').id), 200))
  .openapi(receiptRoute, async (c) => c.json(await resendReceipt(signedInContext(c), c.req.valid('param').id), 200))
  .openapi(refundRoute, async (c) => {
    const key = c.req.valid('header')['idempotency-key'] ?? null;
    const { status, body } = await refundDonation(
      signedInContext(c),
      c.req.valid('param').id,
      c.req.valid('json'),
      key,
    );
    return status === 201 ? c.json(body, 201) : c.json(body, 200);
  });
