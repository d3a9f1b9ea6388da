import { eq, like } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { appealNotifications, campaigns, outbox } from '../../../db/schema';
import { toShortId } from '../../../domain/ids';
import { createAppeal, createCampaign, createDonation, createUser } from '../../../tests/factories';
import { engineName, setupTestApp, type TestApp } from '#test-app';
import { readConfig } from '../../lib/config';
import { runScheduledWork } from '../housekeeping/scheduled';
import { createMailer, type Mailer } from '../mail/mailer';
import { appealEndedKey, emailEndedAppeals } from './appeal-ended';

// 10:00 on 25 November 2026 (GMT): today in London is the 25th.
const NOW = new Date(Date.UTC(2026, 10, 25, 10, 0));
const DAY = 24 * 60 * 60 * 1000;
const ORIGIN = 'https://give.example';

const mailerOf = (t: TestApp): Mailer => createMailer(t.db, readConfig(t.env), { log: () => {} });
const run = (t: TestApp, now = NOW, mailer = mailerOf(t)) => emailEndedAppeals(t.db, mailer, { origin: ORIGIN, now });
const mailOf = async (t: TestApp, appealId: string) =>
  t.db
    .select()
    .from(outbox)
    .where(eq(outbox.key, appealEndedKey(appealId)));
const fundraiser = (t: TestApp, firstName: string) =>
  createUser(t.db, { firstName, email: `${firstName.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.org` });

describe(`appeal ended emails (${engineName})`, () => {
  it('tells each fundraiser once, in the week after the last giving day, with the figures and links', async () => {
    const t = await setupTestApp();
    const fay = await fundraiser(t, 'Fay');
    const gus = await fundraiser(t, 'Gus');
    const donor = await createUser(t.db);
    const open = await createCampaign(t.db, { dateTo: '2026-12-31' });
    const appeal = (dateTo: string | null, fields: Partial<typeof campaigns.$inferInsert> = {}) =>
      createAppeal(t.db, open.id, { goal: 10_000, dateTo, createdBy: fay.id, ...fields });

    const yesterday = await appeal('2026-11-24', { title: 'Sponsored run' });
    for (const amount of [3_000, 1_500])
      await createDonation(t.db, { donorId: donor.id, campaignId: open.id, appealId: yesterday.id, amount });
    const weekAgo = await appeal('2026-11-18');
    const eightDaysAgo = await appeal('2026-11-17');
    const today = await appeal('2026-11-25');
    const noDate = await appeal(null);
    const draft = await appeal('2026-11-24', { status: 'draft' });
    const deleted = await appeal('2026-11-24', { status: 'deleted' });
    const nobody = await appeal('2026-11-24', { createdBy: null });
    // The campaign ended yesterday: its appeals ended with it, whatever their own date.
    const ending = await createCampaign(t.db, { title: 'Winter Night Shelter', dateTo: '2026-11-24' });
    const throughCampaign = await createAppeal(t.db, ending.id, { dateTo: '2026-12-20', createdBy: gus.id });
    // Its own date ended 8 days ago, before its campaign's: the earlier day counts, out of the window.
    const ownFirst = await createAppeal(t.db, ending.id, { dateTo: '2026-11-17', createdBy: gus.id });

    expect(await run(t)).toEqual({ sent: 3 });

    const [mail] = await mailOf(t, yesterday.id);
    expect(mail.to).toBe(fay.email);
    expect(mail.subject).toBe('Your appeal Sponsored run has ended: £45.00 raised');
    expect(mail.text).toContain('Hello Fay,');
    expect(mail.text).toContain('It ended on 24 November 2026.');
    expect(mail.text).toContain('£45.00 raised from 2 gifts: 45.00% of its £100.00 goal.');
    expect(mail.text).toContain('now says “Ended”');
    expect(mail.text).toContain('Monthly gifts that were already running continue to go to the charity.');
    expect(mail.text).toContain(`See your appeal: ${ORIGIN}/appeals/${toShortId(yesterday.id)}`);
    expect(mail.text).toContain(
      `If this was a mistake, change the end date in your dashboard to reopen it: ${ORIGIN}/dashboard/active-appeals`,
    );
    expect(mail.text).not.toContain('Turn them off');
    expect(mail.html).toContain(`href="${ORIGIN}/appeals/${toShortId(yesterday.id)}"`);
    expect(mail.html).toContain(`href="${ORIGIN}/dashboard/active-appeals"`);
    expect(mail.html).toContain('£45.00 raised from 2 gifts');

    expect(await mailOf(t, weekAgo.id)).toHaveLength(1);
    const [viaCampaign] = await mailOf(t, throughCampaign.id);
    expect(viaCampaign.to).toBe(gus.email);
    expect(viaCampaign.subject).toBe(`Your appeal ${throughCampaign.title} has ended: £0.00 raised`);
    expect(viaCampaign.text).toContain(
      'It ended on 24 November 2026, with the campaign “Winter Night Shelter” it belongs to.',
    );
    expect(viaCampaign.text).toContain('£0.00 raised from 0 gifts: 0.00% of its £500.00 goal.');
    for (const untold of [eightDaysAgo, today, noDate, draft, deleted, nobody, ownFirst])
      expect(await mailOf(t, untold.id)).toEqual([]);
    // The campaign itself is not an appeal: its creator is not told here.
    expect(await mailOf(t, ending.id)).toEqual([]);

    // The next hour's run: nothing more. Tomorrow's: only the appeal whose last day was today.
    expect(await run(t, new Date(NOW.getTime() + 60 * 60 * 1000))).toEqual({ sent: 0 });
    expect(await run(t, new Date(NOW.getTime() + DAY))).toEqual({ sent: 1 });
    expect(await mailOf(t, today.id)).toHaveLength(1);
    expect(await t.db.select().from(outbox).where(like(outbox.key, 'appeal-ended:%'))).toHaveLength(4);
  });

  it('escapes the title in the HTML', async () => {
    const t = await setupTestApp();
    const fay = await fundraiser(t, 'Fay');
    const campaign = await createCampaign(t.db);
    const appeal = await createAppeal(t.db, campaign.id, {
      title: '<b>Run & "swim"</b>',
      dateTo: '2026-11-24',
      createdBy: fay.id,
    });
    await run(t);
    const [mail] = await mailOf(t, appeal.id);
    expect(mail.subject).toBe('Your appeal <b>Run & "swim"</b> has ended: £0.00 raised');
    expect(mail.text).toContain('“<b>Run & "swim"</b>”');
    expect(mail.html).toContain('<strong>&lt;b&gt;Run &amp; &quot;swim&quot;&lt;/b&gt;</strong>');
    expect(mail.html).not.toContain('<b>Run');
  });

  it('a reopened appeal that ends again is not told twice, even after its outbox row is purged', async () => {
    const t = await setupTestApp();
    const fay = await fundraiser(t, 'Fay');
    const campaign = await createCampaign(t.db);
    const appeal = await createAppeal(t.db, campaign.id, { dateTo: '2026-11-24', createdBy: fay.id });
    await run(t);
    expect(await mailOf(t, appeal.id)).toHaveLength(1);
    // Reopened until 10 December; the outbox row goes after 30 days; it ends again.
    await t.db.update(campaigns).set({ dateTo: '2026-12-10' }).where(eq(campaigns.id, appeal.id));
    await t.db.delete(outbox).where(eq(outbox.key, appealEndedKey(appeal.id)));
    expect(await run(t, new Date(NOW.getTime() + 17 * DAY))).toEqual({ sent: 0 });
    expect(await mailOf(t, appeal.id)).toEqual([]);
  });

  it('an email that could not be written is tried again on the next run', async () => {
    const t = await setupTestApp();
    const fay = await fundraiser(t, 'Fay');
    const campaign = await createCampaign(t.db);
    const appeal = await createAppeal(t.db, campaign.id, { dateTo: '2026-11-24', createdBy: fay.id });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken: Mailer = { ...mailerOf(t), send: () => Promise.reject(new Error('database busy')) };
    expect(await run(t, NOW, broken)).toEqual({ sent: 0 });
    expect(error).toHaveBeenCalledWith(expect.stringContaining('appeal ended email failed'));
    error.mockRestore();
    const [row] = await t.db.select().from(appealNotifications).where(eq(appealNotifications.appealId, appeal.id));
    expect(row.endedSentAt).toBeNull();
    expect(await run(t)).toEqual({ sent: 1 });
    expect(await mailOf(t, appeal.id)).toHaveLength(1);
  });

  it('is a step of the hourly scheduled work, counted as appeals_ended_emails', async () => {
    const t = await setupTestApp();
    const fay = await fundraiser(t, 'Fay');
    const campaign = await createCampaign(t.db);
    const appeal = await createAppeal(t.db, campaign.id, { dateTo: '2026-11-24', createdBy: fay.id });
    const work = () =>
      runScheduledWork({ db: t.db, config: readConfig(t.env), bucket: null, origin: ORIGIN, now: NOW });
    // The local outbox mailer prints each email.
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect((await work()).appeals_ended_emails).toBe(1);
      expect((await work()).appeals_ended_emails).toBe(0);
    } finally {
      log.mockRestore();
    }
    const [mail] = await mailOf(t, appeal.id);
    expect(mail.text).toContain(`${ORIGIN}/appeals/${toShortId(appeal.id)}`);
  });
});
