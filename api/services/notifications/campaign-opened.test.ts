import { eq, like } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { appealNotifications, campaigns, outbox } from '../../../db/schema';
import { toShortId } from '../../../domain/ids';
import { createAppeal, createCampaign, createDonation, createUser } from '../../../tests/factories';
import { engineName, setupTestApp, type TestApp } from '#test-app';
import { readConfig } from '../../lib/config';
import { runScheduledWork } from '../housekeeping/scheduled';
import { createMailer, type Mailer } from '../mail/mailer';
import { campaignOpenedKey, emailOpenedCampaigns } from './campaign-opened';

// 10:00 on 25 November 2026 (GMT): today in London is the 25th, past the 08:00 the email waits for.
const NOW = new Date(Date.UTC(2026, 10, 25, 10, 0));
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
// Made five days before NOW, while these campaigns waited for their start dates.
const MADE = new Date(NOW.getTime() - 5 * DAY);
const ORIGIN = 'https://give.example';

const mailerOf = (t: TestApp): Mailer => createMailer(t.db, readConfig(t.env), { log: () => {} });
const run = (t: TestApp, now = NOW, mailer = mailerOf(t)) =>
  emailOpenedCampaigns(t.db, mailer, { origin: ORIGIN, now });
const mailOf = (t: TestApp, id: string) =>
  t.db
    .select()
    .from(outbox)
    .where(eq(outbox.key, campaignOpenedKey(id)));
const creator = (t: TestApp, firstName: string) =>
  createUser(t.db, {
    firstName,
    type: 'admin',
    email: `${firstName.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.org`,
  });

describe(`campaign opened emails (${engineName})`, () => {
  it("tells a campaign's creator once that it opened, with its appeals, on the day or the two after", async () => {
    const t = await setupTestApp();
    const ann = await creator(t, 'Ann');
    const fay = await creator(t, 'Fay');
    const donor = await createUser(t.db);
    const campaign = (dateFrom: string | null, fields: Partial<typeof campaigns.$inferInsert> = {}) =>
      createCampaign(t.db, { goal: 1_000_000, dateFrom, createdBy: ann.id, createdAt: MADE, ...fields });

    const today = await campaign('2026-11-25', { title: 'Winter Night Shelter', dateTo: '2026-12-31' });
    // Two appeals on the site under it, and one still a draft.
    await createAppeal(t.db, today.id, { status: 'approved', createdBy: fay.id });
    await createAppeal(t.db, today.id, { status: 'approved', dateFrom: '2026-12-01', createdBy: fay.id });
    await createAppeal(t.db, today.id, { status: 'draft', createdBy: fay.id });
    // An offline gift recorded before the day shows in the figures.
    await createDonation(t.db, { donorId: donor.id, campaignId: today.id, amount: 12_500 });
    const twoDaysAgo = await campaign('2026-11-23', { title: 'Spring Wells' });
    const threeDaysAgo = await campaign('2026-11-22');
    const tomorrow = await campaign('2026-11-26');
    const madeOnTheDay = await campaign('2026-11-25', { createdAt: new Date(NOW.getTime() - 2 * HOUR) });
    const noDate = await campaign(null);
    const draft = await campaign('2026-11-25', { status: 'draft' });
    const nobody = await campaign('2026-11-25', { createdBy: null });
    const endedAlready = await campaign('2026-11-24', { dateTo: '2026-11-24' });
    // An appeal that opens today is its fundraiser's email (062), not this one.
    const appealToday = await createAppeal(t.db, noDate.id, {
      dateFrom: '2026-11-25',
      createdBy: fay.id,
      createdAt: MADE,
    });

    expect(await run(t)).toEqual({ sent: 2 });

    const [mail] = await mailOf(t, today.id);
    expect(mail.to).toBe(ann.email);
    expect(mail.subject).toBe('Your campaign Winter Night Shelter is open for gifts');
    expect(mail.text).toContain('Hello Ann,');
    expect(mail.text).toContain(
      'Your campaign “Winter Night Shelter” opened for gifts today. It takes gifts until 31 December 2026.',
    );
    expect(mail.text).toContain(
      `Now is the time to share its link with your supporters.\n${ORIGIN}/campaigns/${toShortId(today.id)}`,
    );
    expect(mail.text).toContain('Its goal is £10,000.00; £125.00 has been given so far.');
    expect(mail.text).toContain(
      `2 appeals are on the site under it; each fundraiser is emailed when their own appeal opens. More can be started here:\n${ORIGIN}/fund-raising?campaign=${toShortId(today.id)}`,
    );
    expect(mail.text).toContain(`See your campaign: ${ORIGIN}/campaigns/${toShortId(today.id)}`);
    expect(mail.text).toContain('You get this email once, because you started this campaign.');
    expect(mail.html).toContain('<strong>Winter Night Shelter</strong> opened for gifts today.');
    expect(mail.html).toContain(`href="${ORIGIN}/fund-raising?campaign=${toShortId(today.id)}"`);
    expect(mail.html).toContain('because you started this campaign.');

    const [late] = await mailOf(t, twoDaysAgo.id);
    expect(late.text).toContain('Your campaign “Spring Wells” opened for gifts on 23 November 2026.');
    expect(late.text).not.toContain('It takes gifts until');
    expect(late.text).toContain(
      `No appeal has been started under it yet. Fundraisers can start one for it here:\n${ORIGIN}/fund-raising?campaign=${toShortId(twoDaysAgo.id)}`,
    );
    for (const untold of [threeDaysAgo, tomorrow, madeOnTheDay, noDate, draft, nobody, endedAlready])
      expect(await mailOf(t, untold.id)).toEqual([]);
    expect(await mailOf(t, appealToday.id)).toEqual([]);

    // The next hour's run: nothing more. Tomorrow's: the campaign that opens tomorrow.
    expect(await run(t, new Date(NOW.getTime() + HOUR))).toEqual({ sent: 0 });
    expect(await run(t, new Date(NOW.getTime() + DAY))).toEqual({ sent: 1 });
    expect(await mailOf(t, tomorrow.id)).toHaveLength(1);
    expect(await t.db.select().from(outbox).where(like(outbox.key, 'campaign-opened:%'))).toHaveLength(3);
  });

  it('waits for 08:00 in London, escapes the title, and a moved start date sends no second email', async () => {
    const t = await setupTestApp();
    const ann = await creator(t, 'Ann');
    const opening = await createCampaign(t.db, {
      title: 'Wells & <b>Water</b>',
      dateFrom: '2026-11-25',
      createdBy: ann.id,
      createdAt: MADE,
    });
    // 07:30 in London (GMT): not yet.
    expect(await run(t, new Date(Date.UTC(2026, 10, 25, 7, 30)))).toEqual({ sent: 0 });
    expect(await run(t)).toEqual({ sent: 1 });
    const [mail] = await mailOf(t, opening.id);
    expect(mail.html).toContain('<strong>Wells &amp; &lt;b&gt;Water&lt;/b&gt;</strong>');
    expect(mail.html).not.toContain('<b>Water');
    // Its start date moved to next week and back: the claim holds, so no second email.
    await t.db.update(campaigns).set({ dateFrom: '2026-12-02' }).where(eq(campaigns.id, opening.id));
    await t.db.update(campaigns).set({ dateFrom: '2026-11-25' }).where(eq(campaigns.id, opening.id));
    await t.db.delete(outbox).where(eq(outbox.key, campaignOpenedKey(opening.id)));
    expect(await run(t, new Date(NOW.getTime() + HOUR))).toEqual({ sent: 0 });
  });

  it('an email that could not be written is tried again on the next run; the scheduled work counts it', async () => {
    const t = await setupTestApp();
    const ann = await creator(t, 'Ann');
    const opening = await createCampaign(t.db, { dateFrom: '2026-11-25', createdBy: ann.id, createdAt: MADE });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken: Mailer = { ...mailerOf(t), send: () => Promise.reject(new Error('database busy')) };
    expect(await run(t, NOW, broken)).toEqual({ sent: 0 });
    expect(error).toHaveBeenCalledWith(expect.stringContaining('campaign opened email failed'));
    error.mockRestore();
    const [row] = await t.db.select().from(appealNotifications).where(eq(appealNotifications.appealId, opening.id));
    expect(row.openedSentAt).toBeNull();

    const work = () =>
      runScheduledWork({ db: t.db, config: readConfig(t.env), bucket: null, origin: ORIGIN, now: NOW });
    // The local outbox mailer prints each email.
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect((await work()).campaigns_opened_emails).toBe(1);
      expect((await work()).campaigns_opened_emails).toBe(0);
    } finally {
      log.mockRestore();
    }
    expect(await mailOf(t, opening.id)).toHaveLength(1);
  });
});
