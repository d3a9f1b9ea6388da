import { z } from '@hono/zod-openapi';
import { createRouter } from '../../lib/create-app';
import { HttpError } from '../../lib/errors';
import { errorResponses, jsonBody, jsonContent, okResponses, paymentErrorResponses, routesOf } from '../../lib/openapi';
import { MonthlyPriceSchema } from '../../schemas';
import { CheckoutSessionSchema, DemoPaymentSchema } from '../../schemas/checkout';
import {
  clientSecretBody,
  confirmDemoPayment,
  demoConfirmBody,
  startCheckout,
} from '../../services/donations/checkout';
import { listLocalPrices } from '../../services/donations/pending';
import { RateLimitError } from '../../services/abuse/rate-limit';
import { serviceContext } from '../../lib/service-context';

const payments = routesOf({ tags: ['Payments'] });

const subscriptionsRoute = payments.get('/stripe/subscriptions', {
  summary: 'The monthly amounts offered (the active rows of the local prices table)',
  responses: okResponses(z.array(MonthlyPriceSchema), 'Monthly prices, cheapest first'),
});

const clientSecretRoute = payments.post('/stripe/client_secret', {
  summary: 'Start a one-off (amount) or monthly (price) gift; stores it as pending',
  request: { body: jsonBody(clientSecretBody) },
  responses: okResponses(CheckoutSessionSchema, 'The session to confirm the card with'),
});

const demoConfirmRoute = payments.post('/stripe/demo/confirm', {
  summary: 'Demo mode only (no Stripe keys, not production): settle a demo gift as Stripe would',
  request: { body: jsonBody(demoConfirmBody) },
  responses: {
    200: jsonContent(DemoPaymentSchema, 'The gift’s status after the demo payment'),
    ...paymentErrorResponses,
    ...errorResponses,
  },
});

export const stripeRouter = createRouter()
  // The offered plans are the active rows of the local prices table in both modes (README: the
  // Stripe Prices we sell are mirrored there), so no other Price in the Stripe account can be used.
  .openapi(subscriptionsRoute, async (c) => c.json(await listLocalPrices(c.var.db), 200))
  .openapi(clientSecretRoute, async (c) => {
    try {
      const session = await startCheckout(serviceContext(c), c.req.valid('json'));
      return c.json(session, 200);
    } catch (err) {
      if (err instanceof RateLimitError) c.header('Retry-After', String(err.retryAfterSeconds));
      throw err;
    }
  })
  .openapi(demoConfirmRoute, async (c) => {
    const outcome = await confirmDemoPayment(serviceContext(c), c.req.valid('json'));
    if ('declined' in outcome) throw new HttpError(402, outcome.declined);
    return c.json(outcome, 200);
  });
