import { createRouter } from '../../lib/create-app';
import { bearerAuth, IdParams, okResponses, routesOf } from '../../lib/openapi';
import { pageItems, pageResponses } from '../../lib/paging';
import { financeReaders } from '../../lib/policy';
import { signedInContext } from '../../lib/service-context';
import { readQuery } from '../../lib/validate';
import { PayoutDetailSchema, PayoutQuerySchema, PayoutSchema } from '../../schemas/payouts';
import { listPayouts, payoutDetail } from '../../services/finance/payouts-list';

const WHO = 'Only admins, organization admins and finance users can see payouts';

const payouts = routesOf({
  tags: ['Finance'],
  security: bearerAuth,
  middleware: [financeReaders(WHO)],
});

const listRoute = payouts.get('/finance/payouts', {
  summary: 'Payouts to the bank, newest arrival first (admins all; org admins and finance users their organizations)',
  request: { query: PayoutQuerySchema },
  responses: pageResponses(PayoutSchema, 'Payouts'),
});

const detailRoute = payouts.get('/finance/payouts/{id}', {
  summary: 'One payout with its lines: the gifts, refunds, disputes and fees Stripe paid out in it',
  request: { params: IdParams },
  responses: okResponses(PayoutDetailSchema, 'The payout and its lines'),
});

export const payoutsRouter = createRouter()
  .openapi(listRoute, async (c) => {
    const result = await listPayouts(signedInContext(c), readQuery(c, PayoutQuerySchema));
    return c.json(pageItems(c, result), 200);
  })
  .openapi(detailRoute, async (c) => {
    return c.json(await payoutDetail(signedInContext(c), c.req.valid('param').id.slice(0, 255)), 200);
  });
