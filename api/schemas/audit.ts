import { z } from '@hono/zod-openapi';
import { AUDIT_TARGETS } from '../../domain/finance';
import { dayFilter, fromNotAfterTo, pageQueryShape } from './list-query';

/** The audit log's filters, shared by GET /api/audit and its CSV export. */
const day = (what: 'from' | 'to') => dayFilter(what);

export const auditFilterShape = {
  actor: z
    .string()
    .trim()
    .max(254, 'actor: use at most 254 characters')
    .optional()
    .openapi({ description: 'Actor user id, or part of their email' }),
  target: z
    .string()
    .trim()
    .max(64, 'target: use at most 64 characters')
    .optional()
    .openapi({ description: 'The changed record’s id' }),
  action: z
    .string()
    .trim()
    .max(64, 'action: use at most 64 characters')
    .regex(/^[a-z_.]*$/, 'action: an action like donation.refund, or its record type like donation')
    .optional()
    .transform((v) => (v ? v : undefined))
    .openapi({ description: 'An action (donation.refund), or every action that starts with it (donation)' }),
  target_type: z.enum(AUDIT_TARGETS, { error: `target_type: must be one of ${AUDIT_TARGETS.join(', ')}` }).optional(),
  from: day('from'),
  to: day('to'),
};

export const AuditQuerySchema = z
  .object({
    ...auditFilterShape,
    ...pageQueryShape(),
  })
  .refine(...fromNotAfterTo);

export const AuditExportQuerySchema = z.object(auditFilterShape).refine(...fromNotAfterTo);

export const AuditEntrySchema = z
  .object({
    _id: z.string(),
    at: z.string().openapi({ description: 'ISO timestamp' }),
    actor_id: z.string().nullable(),
    actor_email: z.string().nullable(),
    actor_type: z.string().nullable(),
    action: z.string().openapi({ example: 'donation.refund' }),
    target_type: z.enum(AUDIT_TARGETS),
    target_id: z.string(),
    organization_id: z.string().nullable(),
    changes: z
      .record(z.string(), z.tuple([z.unknown(), z.unknown()]))
      .openapi({ description: '{field: [before, after]}' }),
    request_id: z.string().nullable(),
    note: z.string().nullable(),
  })
  .openapi('AuditEntry');

export type AuditFilters = z.infer<typeof AuditExportQuerySchema>;
export type AuditEntryDto = z.infer<typeof AuditEntrySchema>;
