import { createRouter } from '../../lib/create-app';
import { forbidden } from '../../lib/errors';
import { isAdmin, requireUser } from '../../lib/policy';
import { checkWording, consentOf, consentsCsv, recordConsent, withdrawConsent } from '../../services/users/consent';
import { confirmErasure, requestErasure } from '../../services/users/erasure';
import { parseTaxYear, statementFor } from '../../services/donations/statement';
import {
  confirmErasureRoute,
  exportConsents,
  getConsent,
  getStatement,
  putConsent,
  requestErasureRoute,
} from './me.routes';
import { serviceContext, signedInContext } from '../../lib/service-context';

/** The donor's own consent, erasure and annual statement; the admins' consent export. */
export const meRouter = createRouter()
  .openapi(getConsent, async (c) => c.json(await consentOf(c.var.db, requireUser(c.var.user).id), 200))
  .openapi(putConsent, async (c) => {
    const user = requireUser(c.var.user);
    const body = c.req.valid('json');
    if (body.consent) {
      checkWording(body.consent_wording);
      await recordConsent(c.var.db, { userId: user.id, email: user.email, source: body.source ?? 'my_info' });
    } else await withdrawConsent(c.var.db, user.id);
    return c.json(await consentOf(c.var.db, user.id), 200);
  })
  .openapi(exportConsents, async (c) => {
    const user = requireUser(c.var.user);
    if (!isAdmin(user)) throw forbidden('Only administrators can export marketing consents');
    const { csv } = await consentsCsv(c.var.db);
    return c.body(csv, 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="marketing-consents.csv"',
      'cache-control': 'no-store',
    });
  })
  .openapi(requestErasureRoute, async (c) => {
    const user = requireUser(c.var.user);
    return c.json(await requestErasure(serviceContext(c), user), 200);
  })
  .openapi(confirmErasureRoute, async (c) => {
    const user = requireUser(c.var.user);
    return c.json(await confirmErasure(serviceContext(c), user, c.req.valid('json').code), 200);
  })
  .openapi(getStatement, async (c) => {
    const ctx = signedInContext(c);
    const year = parseTaxYear(c.req.valid('query').tax_year, ctx.now);
    return c.json(await statementFor(ctx, year), 200);
  });
