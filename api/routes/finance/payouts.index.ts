import { createRouter } from '../../lib/create-app';
import { bearerAuth, defineRoute, errorResponses, IdParams, jsonContent } from '../../lib/openapi';
import { pageItems, pageResponses } from '../../lib/paging';
import { financeReaders } from '../../lib/policy';
import { signedInContext } from '../../lib/service-context';
import { readQuery } from '../../lib/validate';
import { PayoutDetailSchema, PayoutQuerySchema, PayoutSchema } from '../../schemas/payouts';
import { listPayouts, payoutDetail } from '../../services/finance/payouts-list';

const WHO = 'Only admins, organization admins and finance users can see payouts';

const listRoute = defineRoute({
  method: 'get',
  path: '/finance/payouts',
  tags: ['Finance'],
  summary: 'Payouts to the bank, newest arrival first (admins all; org admins and finance users their organizations)',
  security: bearerAuth,
  middleware: [financeReaders(WHO)],
  request: { query: PayoutQuerySchema },
  responses: pageResponses(PayoutSchema, 'Payouts'),
});

const detailRoute = defineRoute({
  method: 'get',
  path: '/finance/payouts/{id}',
  tags: ['Finance'],
  summary: 'One payout with its lines: the gifts, refunds, disputes and fees Stripe paid out in it',
  security: bearerAuth,
  middleware: [financeReaders(WHO)],
  request: { params: IdParams },
  responses: { 200: jsonContent(PayoutDetailSchema, 'The payout and its lines'), ...errorResponses },
});

export const payoutsRouter = createRouter()
  .openapi(listRoute, async (c) => {
    const result = await listPayouts(signedInContext(c), readQuery(c, PayoutQuerySchema));
    return c.json(pageItems(c, result), 200);
  })
  .openapi(detailRoute, async (c) => {
    return c.json(await payoutDetail(signedInContext(c), c.req.valid('param').id.slice(0, 255)), 200);
  });
