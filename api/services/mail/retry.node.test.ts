import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { donations, outbox } from '../../../db/schema';
import { createCampaign, createUser } from '../../../tests/factories';
import { fakeId, paymentIntentSucceeded, sendEvent, WEBHOOK_SECRET } from '../../../tests/fixtures/stripe/events';
import { fakeMailProvider } from '../../../tests/mocks/mail-provider';
import { setupTestApp, type TestApp } from '#test-app';
import { readConfig } from '../../lib/config';
import { MAIL_RETRY } from './retry';
import { runMailRetry } from '../housekeeping/scheduled';

describe('a receipt the mail provider refused in a burst (node, a real HTTP provider)', () => {
  const provider = fakeMailProvider();
  let t: TestApp;

  beforeAll(async () => {
    const url = await provider.start();
    t = await setupTestApp({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, MAIL_API_KEY: 're_test_key', MAIL_API_URL: url });
  });
  afterAll(() => provider.stop());

  it('records the gift, leaves the receipt unsent without an error log, and the five-minute retry sends it once', async () => {
    const campaign = await createCampaign(t.db);
    const donor = await createUser(t.db);
    const donationId = crypto.randomUUID();
    const evt = paymentIntentSucceeded({
      intentId: fakeId('pi'),
      amount: 1500,
      metadata: {
        kind: 'one_off',
        donation_id: donationId,
        campaign_id: campaign.id,
        appeal_id: '',
        donor_id: donor.id,
        gift_aid_declaration_id: '',
        source: 'card',
      },
    });
    const errors = vi.spyOn(console, 'error');
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
    provider.setStatus(429);
    try {
      expect((await sendEvent(t, evt)).status).toBe(200);
    } finally {
      provider.setStatus(200);
    }
    expect(provider.received).toHaveLength(1);
    expect(JSON.stringify(warnings.mock.calls)).toContain('mail provider busy; the scheduled retry sends it');
    expect(errors).not.toHaveBeenCalled();
    warnings.mockRestore();
    errors.mockRestore();
    const [gift] = await t.db.select().from(donations).where(eq(donations.id, donationId));
    expect(gift.status).toBe('succeeded');
    const [receipt] = await t.db
      .select()
      .from(outbox)
      .where(eq(outbox.key, `receipt:${donationId}`));
    expect(receipt.sentAt).toBeNull();

    // Too soon: the send may still be on its way. Then the retry's cron sends it, once.
    const config = readConfig(t.env);
    await runMailRetry({ db: t.db, config, now: new Date(Date.now() + MAIL_RETRY.afterMs - 30_000) });
    expect(provider.received).toHaveLength(1);
    const later = new Date(Date.now() + MAIL_RETRY.afterMs + 1_000);
    expect(await runMailRetry({ db: t.db, config, now: later })).toMatchObject({ mail_retried: 1 });
    await runMailRetry({ db: t.db, config, now: new Date(later.getTime() + 60 * 60_000) });
    expect(provider.received).toHaveLength(2);
    const [resent] = provider.received.slice(1);
    expect(resent.headers['idempotency-key']).toBe(`outbox/${receipt.id}`);
    expect(resent.body).toMatchObject({ to: [donor.email], subject: receipt.subject });
    const [after] = await t.db.select().from(outbox).where(eq(outbox.id, receipt.id));
    expect(after.sentAt).toBeInstanceOf(Date);
  });
});
