import type Stripe from 'stripe';
import type { Db } from '../../../db/client';
import type { Statement } from '../../services/donations-record';
import type { Mailer } from '../../services/mailer';

export type WebhookContext = {
  db: Db;
  stripe: Stripe | null;
  /** When set, a recorded gift to an appeal may email its fundraiser (api/services/notifications). */
  mailer?: Mailer;
  origin?: string | null;
};

/** The writes an event needs (run in one batch with the event id), or 'ignore' when it is not ours. */
export type EventHandler = (ctx: WebhookContext, event: Stripe.Event) => Promise<Statement[] | 'ignore'>;
