import { z } from '@hono/zod-openapi';
import { createRouter } from '../../lib/create-app';
import { bearerAuth, defineRoute, errorResponses, jsonContent, totalCountHeader } from '../../lib/openapi';
import { financeReaders, requireUser } from '../../lib/policy';
import { readQuery } from '../../lib/validate';
import { AuditEntrySchema, AuditQuerySchema } from '../../schemas/audit';
import { listAudit } from '../../services/audit/list';

const listRoute = defineRoute({
  method: 'get',
  path: '/audit',
  tags: ['Audit'],
  summary: 'The audit log: every staff write, newest first (admins all; org admins and finance their organizations)',
  security: bearerAuth,
  middleware: [financeReaders('Only admins, organization admins and finance users can read the audit log')],
  request: { query: AuditQuerySchema },
  responses: {
    200: { ...jsonContent(z.array(AuditEntrySchema), 'Entries'), headers: totalCountHeader },
    ...errorResponses,
  },
});

/** Read only: the audit log has no route that updates or deletes (the table refuses both). */
export const auditRouter = createRouter().openapi(listRoute, async (c) => {
  const result = await listAudit(c.var.db, requireUser(c.var.user), readQuery(c, AuditQuerySchema));
  c.header('X-Total-Count', String(result.total));
  return c.json(result.items, 200);
});
