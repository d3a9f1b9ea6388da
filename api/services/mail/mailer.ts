import { eq, inArray } from 'drizzle-orm';
import { MAX_BOUND_PARAMS } from '../../../db/chunks';
import type { Db } from '../../../db/client';
import { outbox } from '../../../db/schema';
import type { AppConfig } from '../../lib/config';
import { HttpError } from '../../lib/errors';
import { gatherer } from '../../lib/gather';
import { errorSummary, logLine } from '../../middlewares/logger';
import { escapeHtml } from '../../../domain/html';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** A message that must go at most once ("receipt:<donation id>"): a second send with the key does nothing. */
  key?: string;
  /** A value only the recipient may read (a sign-in code): the outbox row of a sent email never holds it. */
  secret?: string;
};

/** The row kept in the outbox when a provider sends the email: the secret replaced, readable by nobody. */
export function redactedForOutbox(message: MailMessage): MailMessage {
  const { secret, ...row } = message;
  if (!secret) return row;
  const hide = (value: string) => value.split(secret).join('[redacted]');
  return { ...row, subject: hide(row.subject), text: hide(row.text), html: hide(row.html) };
}

/** The mail port: every message is written to the outbox first, then handed to a transport. */
export interface Mailer {
  readonly kind: 'outbox' | 'http';
  /** `duplicate`: a message with the same key was already written, so nothing was sent. */
  send(message: MailMessage): Promise<{ id: string; duplicate?: boolean }>;
  /** Whether `send` writes the outbox row; false: this server cannot send email, so no row may claim one. */
  readonly stores: boolean;
  /**
   * Hands over a message whose outbox row (`id`) was written elsewhere (a webhook's recording batch).
   * `gather`: after a worker's answer, a keyed message waits up to a second for the others of its
   * second, and they go in one batch request and one "sent" write (a storm's receipts would otherwise
   * be twenty requests and twenty commits a second).
   */
  transmit(id: string, message: MailMessage, options?: { gather?: boolean }): Promise<void>;
}

type MailerOptions = { fetch?: typeof fetch; log?: (line: string) => void; clock?: () => number };

/** HTTP provider when MAIL_API_KEY is set; otherwise the local outbox (development only). */
export function createMailer(db: Db, config: AppConfig, options: MailerOptions = {}): Mailer {
  if (config.mailApiKey)
    return httpMailer(db, { config, fetch: options.fetch ?? runtimeFetch, clock: options.clock ?? Date.now });
  if (config.production) return unconfiguredMailer();
  return outboxMailer(db, options.log ?? ((line) => console.log(line)));
}

/** The outbox is readable at GET /api/dev/outbox only in development (APP_ENV=development) without a mail provider. */
export const devOutboxEnabled = (config: AppConfig) => !config.mailApiKey && !config.production;

/** The outbox row's id, or null when a message with the same key is already there. */
async function store(db: Db, message: MailMessage): Promise<string | null> {
  const values = {
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    key: message.key ?? null,
  };
  if (!message.key) {
    const [row] = await db.insert(outbox).values(values).returning({ id: outbox.id });
    return row.id;
  }
  // The unique key makes concurrent copies (two webhook deliveries at once) write one row.
  const [row] = await db
    .insert(outbox)
    .values(values)
    .onConflictDoNothing({ target: outbox.key })
    .returning({ id: outbox.id });
  return row?.id ?? null;
}

function outboxMailer(db: Db, log: (line: string) => void): Mailer {
  // Local only (development without a provider): the code must be readable here to sign in.
  const print = (id: string, message: MailMessage) =>
    log(`[mail] outbox ${id}\nTo: ${message.to}\nSubject: ${message.subject}\n\n${message.text}\n`);
  return {
    kind: 'outbox',
    stores: true,
    async send(message) {
      const id = await store(db, message);
      if (!id) return { id: '', duplicate: true };
      print(id, message);
      return { id };
    },
    async transmit(id, message) {
      print(id, message);
    },
  };
}

/**
 * Until when (ms) each provider URL said it is busy (a 429 with Retry-After), per isolate. Meanwhile
 * a message with a key (a receipt, a notice: the scheduled retry sends it later) is not offered, so
 * a telethon's receipts do not keep the provider's window full while a visitor waits for a sign-in
 * code, which has no key and is always tried.
 */
const busyUntil = new Map<string, number>();
/** The longest pause a Retry-After may ask for here; the scheduled retry covers anything longer. */
const MAX_BUSY_MS = 60_000;

/** The provider as one mailer reaches it: its settings, the fetch to use and the clock of its pauses. */
type Provider = { config: AppConfig; fetch: typeof fetch; clock: () => number };

/**
 * The runtime's fetch, called as a plain function: workerd refuses `provider.fetch(…)` with the
 * provider object as `this` ("Illegal invocation").
 */
const runtimeFetch: typeof fetch = (input, init) => fetch(input, init);

/**
 * How one request to the provider ended for the messages it carried: `refused` means the provider
 * took none of them (a 4xx), `unknown` that some may have gone (no answer, a 5xx, a 409 for a key
 * still in flight), so only the same request under the same key may be tried again.
 */
type Outcome = 'sent' | 'busy' | 'refused' | 'unknown';

const isBusy = (provider: Provider) => provider.clock() < (busyUntil.get(provider.config.mailApiUrl) ?? 0);

/** One message as Resend's API takes it, alone or in a batch. */
const payload = (config: AppConfig, message: MailMessage) => ({
  from: config.mailFrom,
  to: [message.to],
  subject: message.subject,
  text: message.text,
  html: message.html,
});

async function post(
  provider: Provider,
  url: string,
  idempotencyKey: string,
  body: unknown,
  fields: Record<string, unknown>,
): Promise<Outcome> {
  const { config } = provider;
  let response: Response;
  try {
    response = await provider.fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${config.mailApiKey}`,
        'content-type': 'application/json',
        // The provider sends a request once per key for a day (Resend keeps them 24 h): a retry
        // after a lost answer, or two retries racing, cannot send it twice.
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    logLine('error', 'mail provider unreachable', { ...fields, error: errorSummary(err) });
    return 'unknown';
  }
  if (response.status === 429) {
    // Resend allows a few requests a second per team. The rows stay unsent and the scheduled mail
    // retry sends them at the provider's pace (retry.ts).
    const retryAfter = response.headers.get('retry-after');
    const seconds = retryAfter !== null && /^\d{1,5}$/.test(retryAfter.trim()) ? Number(retryAfter) : 0;
    if (seconds > 0) busyUntil.set(config.mailApiUrl, provider.clock() + Math.min(seconds * 1000, MAX_BUSY_MS));
    logLine('warn', 'mail provider busy; the scheduled retry sends it', { ...fields, retry_after: retryAfter });
    return 'busy';
  }
  if (!response.ok) {
    const detail = (await response.text().catch(() => '')).slice(0, 200);
    logLine('error', 'mail provider refused', { ...fields, status: response.status, detail });
    return response.status >= 400 && response.status < 500 && response.status !== 409 ? 'refused' : 'unknown';
  }
  return 'sent';
}

const notSent = (outcome: Outcome) => (outcome === 'busy' ? new MailProviderBusy() : mailFailed());

/** Sends one message under its row's key and marks the row sent. */
async function sendOne(db: Db, provider: Provider, id: string, message: MailMessage): Promise<void> {
  const outcome = await post(provider, provider.config.mailApiUrl, `outbox/${id}`, payload(provider.config, message), {
    outbox_id: id,
  });
  if (outcome !== 'sent') throw notSent(outcome);
  await markSent(db, [id]);
}

/** Resend's batch endpoint beside the single one: `…/emails` → `…/emails/batch` (Resend takes up to 100; see MAX_BATCH). */
export const batchUrl = (mailApiUrl: string) => `${mailApiUrl.replace(/\/+$/, '')}/batch`;

/**
 * The most messages in one batch request: Resend takes 100, but the batch's rows are keyed and marked
 * sent by one statement naming each id, and D1 refuses a statement with more than 100 bound
 * parameters ("too many SQL variables"; db/chunks.ts). A storm of 100 receipts in a second lost
 * its batch to that before this limit.
 */
export const MAX_BATCH = MAX_BOUND_PARAMS;

export type OutboxMessage = { id: string; message: MailMessage };

/**
 * Sends rows in one batch request and marks them sent in one write. The batch's Idempotency-Key is
 * written on the rows first (`outbox/batch/<first id>`, rows in id order), so a batch whose answer was
 * lost is sent again whole, same key, same body, by the scheduled retry and never one by one (which
 * could send a message twice). A batch the provider refused outright loses its key: its rows go alone.
 */
async function sendBatch(db: Db, provider: Provider, rows: OutboxMessage[], knownKey?: string): Promise<void> {
  const inOrder = [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const ids = inOrder.map((row) => row.id);
  const key = knownKey ?? `outbox/batch/${ids[0]}`;
  if (!knownKey) await db.update(outbox).set({ batchKey: key }).where(inArray(outbox.id, ids));
  const body = inOrder.map((row) => payload(provider.config, row.message));
  const outcome = await post(provider, batchUrl(provider.config.mailApiUrl), key, body, {
    batch_key: key,
    messages: ids.length,
  });
  if (outcome === 'sent') return markSent(db, ids);
  if (outcome === 'refused') await db.update(outbox).set({ batchKey: null }).where(inArray(outbox.id, ids));
  throw notSent(outcome);
}

type GatheredSend = OutboxMessage & { provider: Provider };

/**
 * After a worker's answer, the keyed messages of one second (a storm's receipts) go in one batch
 * request: one request a second however many gifts, inside the provider's rate limit. The first of a
 * quiet spell goes at once and alone.
 */
const gatherSends = gatherer<Db, GatheredSend>(
  (db, items) =>
    items.length === 1
      ? sendOne(db, items[0].provider, items[0].id, items[0].message)
      : sendBatch(db, items[0].provider, items),
  { windowMs: 1000, max: MAX_BATCH },
);

/** Resend-style JSON API: POST {from, to, subject, text, html} with a bearer key; a batch of them to …/batch. */
function httpMailer(db: Db, provider: Provider): Mailer {
  const mailer: Mailer = {
    kind: 'http',
    stores: true,
    async send(message) {
      // Sign-in codes reach the provider only; the outbox keeps the row without them.
      const id = await store(db, redactedForOutbox(message));
      if (!id) return { id: '', duplicate: true };
      await mailer.transmit(id, message);
      return { id };
    },
    async transmit(id, message, options) {
      if (message.key && isBusy(provider)) throw new MailProviderBusy();
      if (options?.gather && message.key) return gatherSends(db, { id, message, provider });
      await sendOne(db, provider, id, message);
    },
  };
  return mailer;
}

/**
 * The scheduled retry's way to send a batch again whole: the same rows under the key they carry.
 * Throws MailProviderBusy on a 429, another HttpError when the provider did not take it.
 */
export async function resendBatch(
  db: Db,
  config: AppConfig,
  batchKey: string,
  rows: OutboxMessage[],
  options: Pick<MailerOptions, 'fetch' | 'clock'> = {},
): Promise<void> {
  const provider: Provider = { config, fetch: options.fetch ?? runtimeFetch, clock: options.clock ?? Date.now };
  if (isBusy(provider)) throw new MailProviderBusy();
  await sendBatch(db, provider, rows, batchKey);
}

/** Marks rows sent in one statement, stamped when it is written. */
async function markSent(db: Db, ids: string[]) {
  await db
    .update(outbox)
    .set({ sentAt: new Date() })
    .where(ids.length === 1 ? eq(outbox.id, ids[0]) : inArray(outbox.id, ids));
}

function unconfiguredMailer(): Mailer {
  const refuse = async (): Promise<never> => {
    logLine('error', 'APP_ENV=production but MAIL_API_KEY is not set; no email can be sent');
    throw new HttpError(
      503,
      'Email sign-in is not available right now because email delivery is not configured. Please try again later.',
    );
  };
  return { kind: 'outbox', stores: false, send: refuse, transmit: refuse };
}

const mailFailed = () =>
  new HttpError(502, 'We could not send the email with your code just now. Please try again in a minute.');

/**
 * A send that failed, logged once: a busy provider (429) is a warning, since the scheduled retry
 * sends keyed rows (retry.ts); anything else is an error somebody should look at.
 */
export function logMailFailure(msg: string, err: unknown, fields: Record<string, unknown> = {}) {
  logLine(err instanceof MailProviderBusy ? 'warn' : 'error', msg, { ...fields, error: errorSummary(err) });
}

/** The provider answered 429 (too many requests): nothing is wrong with the message; send it later. */
export class MailProviderBusy extends HttpError {
  constructor() {
    super(503, 'Our email provider is busy just now. Please try again in a minute.');
  }
}

/**
 * The sign-off of the site's own emails. The site is run for the charities it raises money for and is
 * not itself the registered charity (the footer says the same); receipts name the charity that got the gift.
 */
export const operatorLine = (site: string) => `${site}: every gift goes to the registered charity named on its page`;

/** The sign-in email, plain text and HTML; every user-provided value is escaped in the HTML. */
export function loginCodeEmail(input: {
  to: string;
  code: string;
  firstName?: string | null;
  minutes: number;
  siteName?: string;
}): MailMessage {
  const site = input.siteName ?? 'UK NFP';
  const greeting = input.firstName ? `Hello ${input.firstName},` : 'Hello,';
  const subject = `${input.code} is your ${site} sign-in code`;
  const text = [
    greeting,
    '',
    `Your ${site} sign-in code is: ${input.code}`,
    '',
    `It expires in ${input.minutes} minutes and works once. Enter it in the sign-in window to continue.`,
    '',
    `If you did not ask to sign in to ${site} with ${input.to}, you can ignore this email: nobody can sign in without the code.`,
    '',
    operatorLine(site),
  ].join('\n');
  const html = `<!doctype html>
<html lang="en-GB"><body style="margin:0;background:#f6f8f7;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1b2430">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:480px;background:#ffffff;border-radius:12px;border:1px solid #d9dee3">
<tr><td style="background:#0b6e4f;color:#ffffff;padding:16px 24px;border-radius:12px 12px 0 0;font-weight:800;font-size:20px">${escapeHtml(site)}</td></tr>
<tr><td style="padding:24px">
<p style="margin:0 0 16px">${escapeHtml(greeting)}</p>
<p style="margin:0 0 8px">Your sign-in code is:</p>
<p style="margin:0 0 16px;font-size:32px;font-weight:800;letter-spacing:8px;color:#07523a">${escapeHtml(input.code)}</p>
<p style="margin:0 0 16px">It expires in <strong>${input.minutes} minutes</strong> and works once. Enter it in the sign-in window to continue.</p>
<p style="margin:0;color:#4f5b67;font-size:14px">If you did not ask to sign in to ${escapeHtml(site)} with ${escapeHtml(input.to)}, you can ignore this email: nobody can sign in without the code.</p>
</td></tr></table>
<p style="color:#4f5b67;font-size:12px">${escapeHtml(operatorLine(site))}</p>
</td></tr></table></body></html>`;
  return { to: input.to, subject, text, html, secret: input.code };
}
