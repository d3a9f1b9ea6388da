import type { z } from '@hono/zod-openapi';
import type { supportRequests } from '../../../db/schema';
import type { SupportRequestSchema } from '../../schemas/support-requests';

export type SupportRequestDto = z.infer<typeof SupportRequestSchema>;
type Row = typeof supportRequests.$inferSelect;

export function toSupportRequestDto(row: Row, handledBy: string | null): SupportRequestDto {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    subject: row.subject,
    message: row.message,
    created_at: row.createdAt.toISOString(),
    handled_at: row.handledAt?.toISOString() ?? null,
    handled_by: row.handledAt ? handledBy : null,
  };
}
