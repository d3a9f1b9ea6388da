import { parseId } from '../../../domain/ids';
import { createRouter } from '../../lib/create-app';
import { notFound } from '../../lib/errors';
import { bearerAuth, errorResponses, IdParams, jsonBody, jsonContent, okResponses, routesOf } from '../../lib/openapi';
import { pageItems, pageResponses } from '../../lib/paging';
import { financeReaders } from '../../lib/policy';
import { readQuery } from '../../lib/validate';
import {
  BATCH_MAX_LINES,
  BatchBodySchema,
  BatchHeaders,
  BatchQuerySchema,
  BatchSchema,
  BatchSummarySchema,
} from '../../schemas/batches';
import { createBatch } from '../../services/batches/create';
import { getBatch, listBatches } from '../../services/batches/list';
import { signedInContext } from '../../lib/service-context';

const BATCH_ACCESS = 'Only admins, organization admins and finance users can enter or read batches';

const batches = routesOf({
  tags: ['Donations'],
  security: bearerAuth,
  middleware: [financeReaders(BATCH_ACCESS)],
});

const createRoute = batches.post('/donations/batches', {
  summary:
    'Post a batch of offline income: cheques, cash, transfers, standing orders, vouchers (admins; org admins and finance in their organizations)',
  description:
    `Each line becomes a succeeded gift (source batch) to a campaign, an appeal or the organization's general fund, creating new donors. ` +
    `Refused unless the lines add up to expected_total; at most ${BATCH_MAX_LINES} lines. Gift Aid only where the donor has a declaration covering the banked day. ` +
    'The Idempotency-Key header is required: the same key again answers the first batch (200), another batch under it is refused (409). ' +
    'A posted batch is corrected line by line with POST /api/donations/{id}/refund.',
  request: {
    headers: BatchHeaders,
    body: jsonBody(BatchBodySchema),
  },
  responses: {
    201: jsonContent(BatchSchema, 'Posted'),
    200: jsonContent(BatchSchema, 'Already posted under this Idempotency-Key: the first batch'),
    ...errorResponses,
  },
});

const listRoute = batches.get('/donations/batches', {
  summary: 'Batches of offline income, newest banked day first (in the viewer’s organizations)',
  request: { query: BatchQuerySchema },
  responses: pageResponses(BatchSummarySchema, 'Batches'),
});

const getRoute = batches.get('/donations/batches/{id}', {
  summary: 'One batch and its lines',
  request: { params: IdParams },
  responses: okResponses(BatchSchema, 'The batch'),
});

/** Offline income banked together. Mounted before /donations/{id} so "batches" is never read as a gift id. */
export const batchesRouter = createRouter()
  .openapi(createRoute, async (c) => {
    const { status, batch } = await createBatch(
      signedInContext(c),
      c.req.valid('json'),
      c.req.valid('header')['idempotency-key'],
    );
    return status === 201 ? c.json(batch, 201) : c.json(batch, 200);
  })
  .openapi(listRoute, async (c) => {
    const query = readQuery(c, BatchQuerySchema);
    const organizationId = query.organization_id ? parseId(query.organization_id) : undefined;
    if (organizationId === null) return c.json([], 200);
    const result = await listBatches(signedInContext(c), {
      organizationId,
      limit: query.limit,
      offset: query.offset,
    });
    return c.json(pageItems(c, { items: result.rows, total: result.total }), 200);
  })
  .openapi(getRoute, async (c) => {
    const batch = await getBatch(signedInContext(c), c.req.valid('param').id);
    if (!batch) throw notFound('Batch Not Found');
    return c.json(batch, 200);
  });
