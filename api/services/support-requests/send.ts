import { supportRequests } from '../../../db/schema';
import { SUPPORT_REQUESTS_PER_HOUR } from '../../../domain/support';
import { logLine } from '../../middlewares/logger';
import { supportRequestCopyEmail, supportRequestEmail } from '../mail';
import { createMailer } from '../mail/mailer';
import { enforceRateLimits } from '../abuse/rate-limit';
import { type SupportRequestDto, toSupportRequestDto } from './dto';
import type { SignedInContext } from '../../lib/service-context';
import { HOUR_MS } from '../../../domain/dates';

export type SendContext = Pick<SignedInContext, 'db' | 'config' | 'viewer' | 'origin' | 'now'>;

/**
 * Stores the message first (nothing is lost if mail fails), then emails the charity's support
 * address and a copy to the sender. Replies go to the account's address, never one typed in.
 */
export async function sendSupportRequest(
  ctx: SendContext,
  input: { name: string; subject: string; message: string },
): Promise<SupportRequestDto & { email_sent: boolean }> {
  await enforceRateLimits(
    ctx.db,
    [{ key: `support:user:${ctx.viewer.id}`, rule: { limit: SUPPORT_REQUESTS_PER_HOUR, windowMs: HOUR_MS } }],
    ctx.now,
    (minutes) =>
      `You have sent ${SUPPORT_REQUESTS_PER_HOUR} messages this hour. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} or email us directly.`,
  );
  const [row] = await ctx.db
    .insert(supportRequests)
    .values({
      userId: ctx.viewer.id,
      name: input.name,
      email: ctx.viewer.email,
      subject: input.subject,
      message: input.message,
      createdAt: ctx.now,
    })
    .returning();
  const facts = {
    id: row.id,
    name: row.name,
    email: row.email,
    subject: row.subject,
    message: row.message,
    sentAt: row.createdAt,
  };
  const mailer = createMailer(ctx.db, ctx.config);
  let emailSent = true;
  try {
    await mailer.send(
      supportRequestEmail({
        to: ctx.config.supportEmail,
        request: facts,
        inboxUrl: `${ctx.origin}/dashboard/support-inbox`,
        charity: ctx.config.charity,
      }),
    );
    await mailer.send(supportRequestCopyEmail({ request: facts, charity: ctx.config.charity }));
  } catch (error) {
    // The message is stored and shows in the Support inbox; the sender is told the email lagged.
    logLine('error', 'support request mail failed', {
      support_request_id: row.id,
      error: error instanceof Error ? error.message : String(error),
    });
    emailSent = false;
  }
  return { ...toSupportRequestDto(row, null), email_sent: emailSent };
}
