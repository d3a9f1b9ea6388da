import { createRouter } from '../../lib/create-app';
import { bearerAuth, routesOf } from '../../lib/openapi';
import { pageItems, pageResponses } from '../../lib/paging';
import { financeReaders } from '../../lib/policy';
import { signedInContext } from '../../lib/service-context';
import { readQuery } from '../../lib/validate';
import { AuditEntrySchema, AuditQuerySchema } from '../../schemas/audit';
import { listAudit } from '../../services/audit/list';

const audit = routesOf({ tags: ['Audit'], security: bearerAuth });

const listRoute = audit.get('/audit', {
  summary: 'The audit log: every staff write, newest first (admins all; org admins and finance their organizations)',
  middleware: [financeReaders('Only admins, organization admins and finance users can read the audit log')],
  request: { query: AuditQuerySchema },
  responses: pageResponses(AuditEntrySchema, 'Entries'),
});

/** Read only: the audit log has no route that updates or deletes (the table refuses both). */
export const auditRouter = createRouter().openapi(listRoute, async (c) => {
  const result = await listAudit(signedInContext(c), readQuery(c, AuditQuerySchema));
  return c.json(pageItems(c, result), 200);
});
