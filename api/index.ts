import { Scalar } from '@scalar/hono-api-reference';
import { type AppDeps, createBaseApp } from './lib/create-app';
import { auditRouter } from './routes/audit/audit.index';
import { authRouter } from './routes/auth/auth.index';
import { batchesRouter } from './routes/batches/batches.index';
import { campaignsRouter } from './routes/campaigns/campaigns.index';
import { campaignsWriteRouter } from './routes/campaigns/campaigns.write';
import { devRouter } from './routes/dev/dev.index';
import { donationsAdminRouter } from './routes/donations/donations.admin';
import { donationsRouter } from './routes/donations/donations.index';
import { donationsRefundRouter } from './routes/donations/donations.refund';
import { giftAidRouter } from './routes/gift-aid/gift-aid.index';
import { healthRouter } from './routes/health/health.index';
import { organizationsRouter } from './routes/organizations/organizations.index';
import { usersRouter } from './routes/users/users.index';
import { userRecordsRouter } from './routes/users/users.records';
import { reportsRouter } from './routes/reports/reports.index';
import { exportsRouter } from './routes/exports/exports.index';
import { payoutsRouter } from './routes/finance/payouts.index';
import { notificationsRouter } from './routes/notifications/notifications.index';
import { messagesRouter } from './routes/messages/messages.index';
import { imagesRouter } from './routes/images/images.index';
import { cspReportRouter } from './routes/security/csp-report.index';
import { turnstileRouter } from './routes/security/turnstile.index';
import { monthlyGiftsRouter } from './routes/monthly-gifts/monthly-gifts.index';
import { meRouter } from './routes/me/me.index';
import { stripeRouter } from './routes/stripe/stripe.index';
import { supportRequestsRouter } from './routes/support-requests/support-requests.index';
import { templateCausesRouter } from './routes/template-causes/template-causes.index';
import { stripeWebhookRouter } from './webhooks/stripe';

/** The JSON API, mounted at /api by src/fetch.ts and used directly by tests. */
export function createApp(deps: AppDeps = {}) {
  const app = createBaseApp(deps)
    .route('/', healthRouter)
    .route('/', campaignsRouter)
    .route('/', campaignsWriteRouter)
    .route('/', imagesRouter)
    .route('/', templateCausesRouter)
    .route('/', batchesRouter)
    .route('/', donationsRouter)
    .route('/', donationsAdminRouter)
    .route('/', donationsRefundRouter)
    .route('/', organizationsRouter)
    .route('/', usersRouter)
    .route('/', userRecordsRouter)
    .route('/', reportsRouter)
    .route('/', exportsRouter)
    .route('/', auditRouter)
    .route('/', payoutsRouter)
    .route('/', notificationsRouter)
    .route('/', messagesRouter)
    .route('/', authRouter)
    .route('/', devRouter)
    .route('/', stripeRouter)
    .route('/', stripeWebhookRouter)
    .route('/', cspReportRouter)
    .route('/', turnstileRouter)
    .route('/', monthlyGiftsRouter)
    .route('/', meRouter)
    .route('/', giftAidRouter)
    .route('/', supportRequestsRouter);
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer' });
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'UK NFP fundraising API',
      version: '1.0.0',
      description:
        'JSON API of the donation and fundraising platform. Money is integer pence; every error is {statusCode, message}.',
    },
  });
  app.get('/docs', Scalar({ url: '/api/openapi.json', pageTitle: 'UK NFP API reference' }));
  return app;
}

export type AppType = ReturnType<typeof createApp>;
