import { eq, like } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { appealNotifications, campaigns, notificationPreferences, outbox } from '../../../db/schema';
import { toShortId } from '../../../domain/ids';
import { createAppeal, createCampaign, createDonation, createUser } from '../../../tests/factories';
import { engineName, setupTestApp, type TestApp } from '#test-app';
import { readConfig } from '../../lib/config';
import { runScheduledWork } from '../housekeeping/scheduled';
import { createMailer, type Mailer } from '../mail/mailer';
import { appealOpenedKey, emailOpenedAppeals } from './appeal-opened';

// 10:00 on 25 November 2026 (GMT): today in London is the 25th, past the 08:00 the email waits for.
const NOW = new Date(Date.UTC(2026, 10, 25, 10, 0));
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
// Made five days before NOW, when these appeals were still waiting for their start dates.
const MADE = new Date(NOW.getTime() - 5 * DAY);
const ORIGIN = 'https://give.example';

const mailerOf = (t: TestApp): Mailer => createMailer(t.db, readConfig(t.env), { log: () => {} });
const run = (t: TestApp, now = NOW, mailer = mailerOf(t)) => emailOpenedAppeals(t.db, mailer, { origin: ORIGIN, now });
const mailOf = async (t: TestApp, appealId: string) =>
  t.db
    .select()
    .from(outbox)
    .where(eq(outbox.key, appealOpenedKey(appealId)));
const fundraiser = (t: TestApp, firstName: string) =>
  createUser(t.db, { firstName, email: `${firstName.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.org` });

/** A fresh app with one appeal, made five days ago, whose start date is today (NOW). */
async function openingToday() {
  const t = await setupTestApp();
  const fay = await fundraiser(t, 'Fay');
  const campaign = await createCampaign(t.db);
  const appeal = await createAppeal(t.db, campaign.id, { dateFrom: '2026-11-25', createdBy: fay.id, createdAt: MADE });
  return { t, appeal };
}

describe(`appeal opened emails (${engineName})`, () => {
  it('tells the fundraiser of each appeal that waited for its start date, once, on the day or the two after', async () => {
    const t = await setupTestApp();
    const fay = await fundraiser(t, 'Fay');
    const gus = await fundraiser(t, 'Gus');
    const donor = await createUser(t.db);
    const open = await createCampaign(t.db, { dateTo: '2026-12-31' });
    const appeal = (dateFrom: string | null, fields: Partial<typeof campaigns.$inferInsert> = {}) =>
      createAppeal(t.db, open.id, { goal: 20_000, dateFrom, createdBy: fay.id, createdAt: MADE, ...fields });

    const today = await appeal('2026-11-25', { title: 'Sponsored swim', dateTo: '2026-12-20' });
    // Given to already: a gift recorded before the day (an admin's offline income) shows in the figures.
    await createDonation(t.db, { donorId: donor.id, campaignId: open.id, appealId: today.id, amount: 2_500 });
    const twoDaysAgo = await appeal('2026-11-23');
    const threeDaysAgo = await appeal('2026-11-22');
    const tomorrow = await appeal('2026-11-26');
    const madeOnTheDay = await appeal('2026-11-25', { createdAt: new Date(NOW.getTime() - 2 * HOUR) });
    const noDate = await appeal(null);
    const draft = await appeal('2026-11-25', { status: 'draft' });
    const nobody = await appeal('2026-11-25', { createdBy: null });
    const endedAlready = await appeal('2026-11-24', { dateTo: '2026-11-24' });
    // Its own start date passed last week, but its campaign opens today: the later day counts.
    const later = await createCampaign(t.db, { title: 'Winter Night Shelter', dateFrom: '2026-11-25' });
    const throughCampaign = await createAppeal(t.db, later.id, {
      dateFrom: '2026-11-18',
      createdBy: gus.id,
      createdAt: MADE,
    });
    // A campaign that is not approved takes no gifts for its appeals.
    const drafted = await createCampaign(t.db, { status: 'draft' });
    const underDraft = await createAppeal(t.db, drafted.id, {
      dateFrom: '2026-11-25',
      createdBy: gus.id,
      createdAt: MADE,
    });

    expect(await run(t)).toEqual({ sent: 3 });

    const [mail] = await mailOf(t, today.id);
    expect(mail.to).toBe(fay.email);
    expect(mail.subject).toBe('Your appeal Sponsored swim is open for gifts');
    expect(mail.text).toContain('Hello Fay,');
    expect(mail.text).toContain(
      'Your appeal “Sponsored swim” opened for gifts today. It takes gifts until 20 December 2026.',
    );
    expect(mail.text).toContain(`Now is the time to share its link`);
    expect(mail.text).toContain(`${ORIGIN}/appeals/${toShortId(today.id)}`);
    expect(mail.text).toContain('Its goal is £200.00; £25.00 has been given so far.');
    expect(mail.text).toContain(
      'We will email you as gifts arrive (at most once an hour) and when it reaches half and all of its goal.',
    );
    expect(mail.text).toContain('You get this email once, because you started this appeal.');
    expect(mail.html).toContain(`href="${ORIGIN}/appeals/${toShortId(today.id)}"`);
    expect(mail.html).toContain('<strong>Sponsored swim</strong> opened for gifts today.');

    const [late] = await mailOf(t, twoDaysAgo.id);
    // Its campaign's end date is its own last day too.
    expect(late.text).toContain('opened for gifts on 23 November 2026. It takes gifts until 31 December 2026.');
    const [viaCampaign] = await mailOf(t, throughCampaign.id);
    expect(viaCampaign.to).toBe(gus.email);
    expect(viaCampaign.text).toContain('opened for gifts today.');
    expect(viaCampaign.text).not.toContain('It takes gifts until');
    for (const untold of [threeDaysAgo, tomorrow, madeOnTheDay, noDate, draft, nobody, endedAlready, underDraft])
      expect(await mailOf(t, untold.id)).toEqual([]);
    // The campaign itself is not an appeal: its creator is not told here.
    expect(await mailOf(t, later.id)).toEqual([]);

    // The next hour's run: nothing more. Tomorrow's: the appeal that opens tomorrow.
    expect(await run(t, new Date(NOW.getTime() + HOUR))).toEqual({ sent: 0 });
    expect(await run(t, new Date(NOW.getTime() + DAY))).toEqual({ sent: 1 });
    expect(await mailOf(t, tomorrow.id)).toHaveLength(1);
    expect(await t.db.select().from(outbox).where(like(outbox.key, 'appeal-opened:%'))).toHaveLength(4);
  });

  it('waits for 08:00 in London on the day, in summer time too', async () => {
    const t = await setupTestApp();
    const fay = await fundraiser(t, 'Fay');
    const campaign = await createCampaign(t.db);
    // 1 July 2027 is in British Summer Time: 08:00 in London is 07:00 UTC.
    const made = new Date(Date.UTC(2027, 5, 20, 12, 0));
    const appeal = await createAppeal(t.db, campaign.id, {
      dateFrom: '2027-07-01',
      createdBy: fay.id,
      createdAt: made,
    });
    expect(await run(t, new Date(Date.UTC(2027, 5, 30, 23, 30)))).toEqual({ sent: 0 }); // 00:30 on 1 July in London
    expect(await run(t, new Date(Date.UTC(2027, 6, 1, 6, 59)))).toEqual({ sent: 0 }); // 07:59
    expect(await run(t, new Date(Date.UTC(2027, 6, 1, 7, 0)))).toEqual({ sent: 1 }); // 08:00
    expect(await mailOf(t, appeal.id)).toHaveLength(1);
  });

  it('an appeal made late on the eve of its start day is told; one made just after midnight in London is not', async () => {
    const t = await setupTestApp();
    const fay = await fundraiser(t, 'Fay');
    const campaign = await createCampaign(t.db);
    // In summer time London's midnight is 23:00 UTC the evening before.
    const eve = await createAppeal(t.db, campaign.id, {
      dateFrom: '2027-07-01',
      createdBy: fay.id,
      createdAt: new Date(Date.UTC(2027, 5, 30, 22, 50)), // 23:50 on 30 June in London
    });
    const sameDay = await createAppeal(t.db, campaign.id, {
      dateFrom: '2027-07-01',
      createdBy: fay.id,
      createdAt: new Date(Date.UTC(2027, 5, 30, 23, 10)), // 00:10 on 1 July in London
    });
    expect(await run(t, new Date(Date.UTC(2027, 6, 1, 9, 0)))).toEqual({ sent: 1 });
    expect(await mailOf(t, eve.id)).toHaveLength(1);
    expect(await mailOf(t, sameDay.id)).toEqual([]);
  });

  it('promises only the emails the fundraiser has left on in My Info, and escapes the title', async () => {
    const t = await setupTestApp();
    const fay = await fundraiser(t, 'Fay');
    const gus = await fundraiser(t, 'Gus');
    await t.db.insert(notificationPreferences).values({ userId: fay.id, appealGifts: false, appealMilestones: true });
    await t.db.insert(notificationPreferences).values({ userId: gus.id, appealGifts: false, appealMilestones: false });
    const campaign = await createCampaign(t.db);
    const milestonesOnly = await createAppeal(t.db, campaign.id, {
      title: '<b>Run & "swim"</b>',
      dateFrom: '2026-11-25',
      createdBy: fay.id,
      createdAt: MADE,
    });
    const none = await createAppeal(t.db, campaign.id, { dateFrom: '2026-11-25', createdBy: gus.id, createdAt: MADE });
    expect(await run(t)).toEqual({ sent: 2 });
    const [mail] = await mailOf(t, milestonesOnly.id);
    expect(mail.text).toContain('We will email you when it reaches half and all of its goal.');
    expect(mail.text).not.toContain('as gifts arrive');
    expect(mail.subject).toBe('Your appeal <b>Run & "swim"</b> is open for gifts');
    expect(mail.html).toContain('<strong>&lt;b&gt;Run &amp; &quot;swim&quot;&lt;/b&gt;</strong>');
    expect(mail.html).not.toContain('<b>Run');
    const [quiet] = await mailOf(t, none.id);
    expect(quiet.text).not.toContain('We will email you');
  });

  it('a start date moved after the email sends no second one, even after its outbox row is purged', async () => {
    const { t, appeal } = await openingToday();
    await run(t);
    await t.db.update(campaigns).set({ dateFrom: '2026-12-05' }).where(eq(campaigns.id, appeal.id));
    await t.db.delete(outbox).where(eq(outbox.key, appealOpenedKey(appeal.id)));
    expect(await run(t, new Date(NOW.getTime() + 10 * DAY))).toEqual({ sent: 0 });
    expect(await mailOf(t, appeal.id)).toEqual([]);
  });

  it('an email that could not be written is tried again on the next run', async () => {
    const { t, appeal } = await openingToday();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken: Mailer = { ...mailerOf(t), send: () => Promise.reject(new Error('database busy')) };
    expect(await run(t, NOW, broken)).toEqual({ sent: 0 });
    expect(error).toHaveBeenCalledWith(expect.stringContaining('appeal opened email failed'));
    error.mockRestore();
    const [row] = await t.db.select().from(appealNotifications).where(eq(appealNotifications.appealId, appeal.id));
    expect(row.openedSentAt).toBeNull();
    expect(await run(t)).toEqual({ sent: 1 });
    expect(await mailOf(t, appeal.id)).toHaveLength(1);
  });

  it('is a step of the hourly scheduled work, counted as appeals_opened_emails', async () => {
    const { t, appeal } = await openingToday();
    const work = () =>
      runScheduledWork({ db: t.db, config: readConfig(t.env), bucket: null, origin: ORIGIN, now: NOW });
    // The local outbox mailer prints each email.
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect((await work()).appeals_opened_emails).toBe(1);
      expect((await work()).appeals_opened_emails).toBe(0);
    } finally {
      log.mockRestore();
    }
    expect(await mailOf(t, appeal.id)).toHaveLength(1);
  });
});
