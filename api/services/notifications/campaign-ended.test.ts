import { eq, like } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { appealNotifications, campaigns, outbox } from '../../../db/schema';
import { toShortId } from '../../../domain/ids';
import { createAppeal, createCampaign, createDonation, createUser } from '../../../tests/factories';
import { engineName, setupTestApp, type TestApp } from '#test-app';
import { readConfig } from '../../lib/config';
import { runScheduledWork } from '../housekeeping/scheduled';
import { createMailer, type Mailer } from '../mail/mailer';
import { appealEndedKey } from './appeal-ended';
import { campaignEndedKey, emailEndedCampaigns } from './campaign-ended';

// 10:00 on 25 November 2026 (GMT): today in London is the 25th.
const NOW = new Date(Date.UTC(2026, 10, 25, 10, 0));
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const ORIGIN = 'https://give.example';

const mailerOf = (t: TestApp): Mailer => createMailer(t.db, readConfig(t.env), { log: () => {} });
const run = (t: TestApp, now = NOW, mailer = mailerOf(t)) => emailEndedCampaigns(t.db, mailer, { origin: ORIGIN, now });
const mailOf = (t: TestApp, id: string) =>
  t.db
    .select()
    .from(outbox)
    .where(eq(outbox.key, campaignEndedKey(id)));
const person = (t: TestApp, firstName: string) =>
  createUser(t.db, {
    firstName,
    type: 'admin',
    email: `${firstName.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.org`,
  });

describe(`campaign ended emails (${engineName})`, () => {
  it("tells a campaign's creator once, in the week after its last day, with its appeals' figures", async () => {
    const t = await setupTestApp();
    const ann = await person(t, 'Ann');
    const fay = await person(t, 'Fay');
    const donor = await createUser(t.db);
    const campaign = (dateTo: string | null, fields: Partial<typeof campaigns.$inferInsert> = {}) =>
      createCampaign(t.db, { goal: 100_000, dateTo, createdBy: ann.id, ...fields });

    const yesterday = await campaign('2026-11-24', { title: 'Winter Night Shelter' });
    // Five appeals on the site under it (two raised nothing), one draft that raised more than any.
    const raised = [
      ['Sponsored swim', 30_000],
      ['Bake sale', 12_500],
      ['Quiz night', 12_500],
      ['Fun run', 0],
      ['Car wash', 0],
    ] as const;
    for (const [title, amount] of raised) {
      const appeal = await createAppeal(t.db, yesterday.id, { title, status: 'approved', createdBy: fay.id });
      if (amount)
        await createDonation(t.db, { donorId: donor.id, campaignId: yesterday.id, appealId: appeal.id, amount });
    }
    const draft = await createAppeal(t.db, yesterday.id, { title: 'Hidden draft', status: 'draft', createdBy: fay.id });
    await createDonation(t.db, { donorId: donor.id, campaignId: yesterday.id, appealId: draft.id, amount: 90_000 });
    // A gift to the campaign itself, with Gift Aid declared: 25% of £40.
    await createDonation(t.db, { donorId: donor.id, campaignId: yesterday.id, amount: 4_000, giftAid: true });
    // And two online: £20 by card, £10 by Direct Debit (£5 of it refunded, a partial refund still counts).
    await createDonation(t.db, {
      donorId: donor.id,
      campaignId: yesterday.id,
      amount: 2_000,
      source: 'card',
      feePence: 50,
    });
    await createDonation(t.db, {
      donorId: donor.id,
      campaignId: yesterday.id,
      amount: 1_500,
      refundedAmount: 500,
      source: 'card',
      paymentMethod: 'bacs_debit',
      feePence: 30,
    });
    // A failed one counts nowhere.
    await createDonation(t.db, {
      donorId: donor.id,
      campaignId: yesterday.id,
      amount: 9_900,
      status: 'failed',
      source: 'card',
    });

    const weekAgo = await campaign('2026-11-18', { title: 'Autumn Wells' });
    const eightDaysAgo = await campaign('2026-11-17');
    const today = await campaign('2026-11-25');
    const noDate = await campaign(null);
    const draftCampaign = await campaign('2026-11-24', { status: 'draft' });
    const nobody = await campaign('2026-11-24', { createdBy: null });
    // An appeal that ended yesterday is its fundraiser's email (056), not this one.
    const appealEnded = await createAppeal(t.db, noDate.id, { dateTo: '2026-11-24', createdBy: fay.id });

    expect(await run(t)).toEqual({ sent: 2 });

    const [mail] = await mailOf(t, yesterday.id);
    expect(mail.to).toBe(ann.email);
    expect(mail.subject).toBe('Your campaign Winter Night Shelter has ended: £1,520.00 raised');
    expect(mail.text).toContain('Hello Ann,');
    expect(mail.text).toContain('Thank you for your campaign “Winter Night Shelter”. It ended on 24 November 2026.');
    // Its total counts every gift to it and its appeals, the draft's too (the money came in).
    expect(mail.text).toContain('£1,520.00 raised from 7 gifts: 152.00% of its £1,000.00 goal.');
    expect(mail.text).toContain(
      'Of it, £20.00 came by card, £10.00 by Direct Debit and £1,490.00 offline (entered by hand or in a batch).',
    );
    expect(mail.text).toContain('Payment fees on it came to £0.80, so £1,519.20 reached the charity.');
    expect(mail.text).toContain(
      "Donors declared Gift Aid worth £10.00 more, to claim from HMRC on the dashboard's Gift Aid screen.",
    );
    expect(mail.text).toContain(
      "5 appeals were on the site under it; each fundraiser is emailed their own appeal's figures. Those that raised most:\n- Sponsored swim: £300.00\n- Bake sale: £125.00\n- Quiz night: £125.00\n- and 2 more",
    );
    expect(mail.text).not.toContain('Hidden draft');
    expect(mail.text).toContain('now says “Ended”');
    expect(mail.text).toContain('Monthly gifts that were already running continue to go to the charity.');
    expect(mail.text).toContain(`See your campaign: ${ORIGIN}/campaigns/${toShortId(yesterday.id)}`);
    expect(mail.text).toContain(
      `If this was a mistake, change the end date in your dashboard to reopen it: ${ORIGIN}/dashboard/active-campaigns`,
    );
    expect(mail.text).toContain('You get this email once, because you started this campaign.');
    expect(mail.html).toContain('<li>Sponsored swim: £300.00</li>');
    expect(mail.html).toContain(`href="${ORIGIN}/dashboard/active-campaigns"`);

    const [late] = await mailOf(t, weekAgo.id);
    expect(late.text).toContain('It ended on 18 November 2026.');
    expect(late.text).toContain('£0.00 raised from 0 gifts: 0.00% of its £1,000.00 goal.');
    expect(late.text).toContain('No appeal was started under it.');
    expect(late.text).not.toContain('Gift Aid');
    // Nothing came in, or all one way: no split.
    expect(late.text).not.toContain('Of it,');
    expect(late.text).not.toContain('Payment fees');
    for (const untold of [eightDaysAgo, today, noDate, draftCampaign, nobody])
      expect(await mailOf(t, untold.id)).toEqual([]);
    expect(await mailOf(t, appealEnded.id)).toEqual([]);
    expect(
      await t.db
        .select()
        .from(outbox)
        .where(eq(outbox.key, appealEndedKey(appealEnded.id))),
    ).toEqual([]);

    // The next hour's run: nothing more. Tomorrow's: the campaign whose last day was today.
    expect(await run(t, new Date(NOW.getTime() + HOUR))).toEqual({ sent: 0 });
    expect(await run(t, new Date(NOW.getTime() + DAY))).toEqual({ sent: 1 });
    expect(await mailOf(t, today.id)).toHaveLength(1);
    expect(await t.db.select().from(outbox).where(like(outbox.key, 'campaign-ended:%'))).toHaveLength(3);
  });

  it('escapes the titles, and a reopened campaign that ends again is not told twice', async () => {
    const t = await setupTestApp();
    const ann = await person(t, 'Ann');
    const donor = await createUser(t.db);
    const ending = await createCampaign(t.db, {
      title: 'Wells & <b>Water</b>',
      dateTo: '2026-11-24',
      createdBy: ann.id,
    });
    const appeal = await createAppeal(t.db, ending.id, { title: '<i>Swim</i>', status: 'approved' });
    await createDonation(t.db, { donorId: donor.id, campaignId: ending.id, appealId: appeal.id, amount: 1_000 });
    expect(await run(t)).toEqual({ sent: 1 });
    const [mail] = await mailOf(t, ending.id);
    expect(mail.html).toContain('<strong>Wells &amp; &lt;b&gt;Water&lt;/b&gt;</strong>');
    expect(mail.html).toContain('<li>&lt;i&gt;Swim&lt;/i&gt;: £10.00</li>');
    expect(mail.html).not.toContain('<b>Water');
    expect(mail.html).not.toContain('<i>Swim');
    // Reopened until 10 December; the outbox row goes after 30 days; it ends again.
    await t.db.update(campaigns).set({ dateTo: '2026-12-10' }).where(eq(campaigns.id, ending.id));
    await t.db.delete(outbox).where(eq(outbox.key, campaignEndedKey(ending.id)));
    expect(await run(t, new Date(NOW.getTime() + 17 * DAY))).toEqual({ sent: 0 });
    expect(await mailOf(t, ending.id)).toEqual([]);
  });

  it('an email that could not be written is tried again on the next run; the scheduled work counts it', async () => {
    const t = await setupTestApp();
    const ann = await person(t, 'Ann');
    const ending = await createCampaign(t.db, { dateTo: '2026-11-24', createdBy: ann.id });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken: Mailer = { ...mailerOf(t), send: () => Promise.reject(new Error('database busy')) };
    expect(await run(t, NOW, broken)).toEqual({ sent: 0 });
    expect(error).toHaveBeenCalledWith(expect.stringContaining('campaign ended email failed'));
    error.mockRestore();
    const [row] = await t.db.select().from(appealNotifications).where(eq(appealNotifications.appealId, ending.id));
    expect(row.endedSentAt).toBeNull();

    const work = () =>
      runScheduledWork({ db: t.db, config: readConfig(t.env), bucket: null, origin: ORIGIN, now: NOW });
    // The local outbox mailer prints each email.
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect((await work()).campaigns_ended_emails).toBe(1);
      expect((await work()).campaigns_ended_emails).toBe(0);
    } finally {
      log.mockRestore();
    }
    expect(await mailOf(t, ending.id)).toHaveLength(1);
  });
});
