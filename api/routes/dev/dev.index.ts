import { z } from '@hono/zod-openapi';
import { createRouter } from '../../lib/create-app';
import { notFound } from '../../lib/errors';
import { okResponses, routesOf } from '../../lib/openapi';
import { OutboxMessageSchema, OutboxQuery } from '../../schemas/dev';
import { devOutboxEnabled } from '../../services/mail/mailer';
import { serviceContext } from '../../lib/service-context';
import { latestOutboxMessages } from '../../services/mail/outbox';
import { settleDelayedPayments } from '../../services/housekeeping/run';

const devOnly = routesOf({ tags: ['Operations'] });

const outboxRoute = devOnly.get('/dev/outbox', {
  summary: 'Local development only: the 20 newest emails (404 elsewhere)',
  middleware: [
    async (c, next) => {
      if (!devOutboxEnabled(c.var.config)) throw notFound(`No route for GET /api/dev/outbox`);
      await next();
    },
  ],
  request: { query: OutboxQuery },
  responses: okResponses(z.array(OutboxMessageSchema), 'Emails, newest first'),
});

const settleRoute = devOnly.post('/dev/direct-debits/settle', {
  summary: 'Local development only: settle demo Direct Debits now, as the next housekeeping run would (404 elsewhere)',
  description:
    'Runs only the Direct Debit step of housekeeping, so a browser test can watch a gift settle without the rest of housekeeping (which abandons old checkouts) changing its world.',
  middleware: [
    async (c, next) => {
      if (!devOutboxEnabled(c.var.config)) throw notFound(`No route for POST /api/dev/direct-debits/settle`);
      await next();
    },
  ],
  responses: okResponses(
    z.object({ settled: z.number().int() }).openapi('DirectDebitsSettled'),
    'How many demo Direct Debits succeeded or failed',
  ),
});

/** Local-only tools. They answer 404 unless APP_ENV=development and no real mail is configured. */
export const devRouter = createRouter()
  .openapi(outboxRoute, async (c) => {
    const { to } = c.req.valid('query');
    return c.json(await latestOutboxMessages(c.var.db, to), 200);
  })
  .openapi(settleRoute, async (c) => {
    const settled = await settleDelayedPayments(serviceContext(c));
    return c.json({ settled }, 200);
  });
