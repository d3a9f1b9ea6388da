import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { appealNotifications, campaigns, outbox } from '../../../db/schema';
import { londonDayFromToday } from '../../../domain/dates';
import { toShortId } from '../../../domain/ids';
import {
  createAppeal,
  createCampaign,
  createDonation,
  createMonthlyGift,
  createOrganization,
  createSession,
  createUser,
  signedIn,
} from '../../../tests/factories';
import { bodyOf, engineName, setupTestApp, type TestApp } from '#test-app';
import { readConfig } from '../../lib/config';
import { runMailRetry, runScheduledWork } from '../housekeeping/scheduled';
import { createMailer } from '../mail/mailer';
import { CAMPAIGN_DOWN_WINDOW_DAYS, emailCampaignDownAppeals } from './appeal-campaign-down';

const ORIGIN = 'https://give.example';
const DAY = 24 * 60 * 60 * 1000;

const fundraiser = (t: TestApp, firstName: string) =>
  createUser(t.db, { firstName, email: `${firstName.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.org` });

/** A campaign of an organization with an address, its admin, and appeals of every kind under it. */
async function campaignWithAppeals(t: TestApp) {
  const org = await createOrganization(t.db, { email: 'appeals@charity.example' });
  const campaign = await createCampaign(t.db, { title: 'Winter Warmth', organizationId: org.id });
  const orgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [org.id] });
  const fay = await fundraiser(t, 'Fay');
  const gus = await fundraiser(t, 'Gus');
  const appeal = (createdBy: string, fields: Partial<typeof campaigns.$inferInsert> = {}) =>
    createAppeal(t.db, campaign.id, { organizationId: org.id, createdBy, status: 'approved', ...fields });
  const told = [await appeal(fay.id, { title: 'Sponsored swim' }), await appeal(gus.id, { title: 'Bake sale' })];
  const notTold = [
    // The organization's own admin took it down, or works beside who did.
    await appeal(orgAdmin.user.id, { title: 'Staff walk' }),
    // Past its last giving day: it took no gifts anyway.
    await appeal(fay.id, { title: 'Summer fete', dateTo: londonDayFromToday(-2) }),
    // Not on the site in the first place.
    await appeal(gus.id, { title: 'Held draft', status: 'draft' }),
  ];
  await createDonation(t.db, { donorId: gus.id, campaignId: campaign.id, appealId: told[0].id, amount: 4000 });
  // Gus gives to Fay's appeal monthly (and is past due this month); Bake sale has none.
  await createMonthlyGift(t.db, { donorId: gus.id, campaignId: campaign.id, appealId: told[0].id, status: 'past_due' });
  const setStatus = (status: 'approved' | 'draft' | 'deleted') =>
    t.client(orgAdmin.token).api.campaigns[':id'].$put({ param: { id: campaign.id }, json: { status } });
  return { campaign, fay, gus, told, notTold, setStatus };
}

/** The campaign-down and campaign-back emails written to these people. */
async function mailTo(t: TestApp, addresses: string[]) {
  const rows = await t.db.select().from(outbox).where(inArray(outbox.to, addresses));
  return rows.filter((row) => /^campaign-(down|back):/.test(row.key ?? ''));
}

describe(`appeal campaign down emails (${engineName})`, () => {
  it('tells each fundraiser whose live appeal went with its campaign, once, within the five-minute run', async () => {
    const t = await setupTestApp();
    const { fay, gus, told, notTold, setStatus } = await campaignWithAppeals(t);
    expect((await setStatus('draft')).status).toBe(200);
    // Nothing in the admin's save: the next run (every five minutes) writes them.
    expect(await mailTo(t, [fay.email, gus.email])).toEqual([]);
    expect(await runMailRetry({ db: t.db, config: readConfig(t.env), now: new Date() })).toMatchObject({
      appeals_campaign_down_emails: 2,
    });

    const mails = await mailTo(t, [fay.email, gus.email]);
    expect(mails.map((mail) => mail.key?.split(':')[1]).sort()).toEqual(told.map((appeal) => appeal.id).sort());
    const swim = mails.find((mail) => mail.to === fay.email)!;
    expect(swim.subject).toBe('Your appeal Sponsored swim is off the site with its campaign');
    expect(swim.text).toContain('Hello Fay,');
    expect(swim.text).toContain(
      'The charity has taken the campaign “Winter Warmth” off the site for now, and with it your appeal “Sponsored swim”.',
    );
    expect(swim.text).toContain(
      'Your appeal’s page is off the site, and it takes no gifts until the campaign is back.',
    );
    expect(swim.text).toContain('The £40.00 given to it so far stays with the charity');
    expect(swim.text).toContain(
      '1 monthly gift to it is still set up; it continues to go to the charity unless its donor or the charity stops it.',
    );
    expect(mails.find((mail) => mail.to === gus.email)!.text).not.toContain('monthly');
    expect(swim.text).toContain('write to the charity: appeals@charity.example');
    expect(swim.text).toMatch(/See it in My Appeals: \S+\/dashboard\/active-appeals\n/);
    expect(swim.text).not.toContain(`/appeals/${toShortId(told[0].id)}`);
    expect(swim.html).toContain('<strong>Winter Warmth</strong>');
    // The appeals that were not told have no claim either: a later run would not tell them.
    const claims = await t.db
      .select()
      .from(appealNotifications)
      .where(
        inArray(
          appealNotifications.appealId,
          notTold.map((appeal) => appeal.id),
        ),
      );
    expect(claims.filter((claim) => claim.campaignDownSentAt !== null)).toEqual([]);

    // My Appeals, where the email sends Fay, says why her approved appeal is not on the site.
    const token = await createSession(t.db, fay.id);
    const mine = await bodyOf(
      await t.client(token).api.appeals.$get({ query: { mine: 'true', status: 'all', limit: 100 } }),
      200,
    );
    expect(mine.find((item) => item._id === told[0].id)).toMatchObject({
      status: 'approved',
      campaign_status: 'draft',
    });
    const own = await t.client(token).api.campaigns[':id'].$get({ param: { id: told[0].id } });
    expect(await bodyOf(own, 200)).toMatchObject({ campaign_status: 'draft' });
    // Anyone else, Gus included, still finds it hidden with its campaign.
    const other = await createSession(t.db, gus.id);
    expect((await t.client(other).api.campaigns[':id'].$get({ param: { id: told[0].id } })).status).toBe(404);
    expect((await t.client().api.campaigns[':id'].$get({ param: { id: told[0].id } })).status).toBe(404);

    // The hourly run after it: nothing more.
    const hourly = await runScheduledWork({
      db: t.db,
      config: readConfig(t.env),
      bucket: null,
      origin: ORIGIN,
      now: new Date(),
    });
    expect(hourly.appeals_campaign_down_emails).toBe(0);
    expect(await mailTo(t, [fay.email, gus.email])).toHaveLength(2);
  });

  it('approved again, the campaign tells them their appeal is back; deleted later, they are told again', async () => {
    const t = await setupTestApp();
    const { fay, gus, told, setStatus } = await campaignWithAppeals(t);
    const config = readConfig(t.env);
    expect((await setStatus('draft')).status).toBe(200);
    await runMailRetry({ db: t.db, config, now: new Date() });
    // While the campaign was down, the charity also took Gus's appeal down itself: no "back" for it.
    await t.db.update(campaigns).set({ status: 'draft' }).where(eq(campaigns.id, told[1].id));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await setStatus('approved')).status).toBe(200);
    expect(await runMailRetry({ db: t.db, config, now: new Date() })).toMatchObject({
      appeals_campaign_back_emails: 1,
      appeals_campaign_down_emails: 0,
    });
    const back = (await mailTo(t, [fay.email, gus.email])).filter((mail) => mail.key?.startsWith('campaign-back:'));
    expect(back.map((mail) => mail.to)).toEqual([fay.email]);
    expect(back[0].subject).toBe('Your appeal Sponsored swim is back on the site');
    expect(back[0].text).toContain(
      'The charity has put the campaign “Winter Warmth” back on the site, and with it your appeal “Sponsored swim”.',
    );
    expect(back[0].text).toContain(`/appeals/${toShortId(told[0].id)}`);
    // Every claim released, Gus's too: the next run says nothing more.
    expect(await runMailRetry({ db: t.db, config, now: new Date() })).toMatchObject({
      appeals_campaign_back_emails: 0,
    });

    // Deleted later: told again, in the words of a removal (Gus's appeal is a draft now: not told).
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await setStatus('deleted')).status).toBe(200);
    expect(await runMailRetry({ db: t.db, config, now: new Date() })).toMatchObject({
      appeals_campaign_down_emails: 1,
    });
    const removal = (await mailTo(t, [fay.email])).find((mail) => mail.text.includes('removed'))!;
    expect(removal.text).toContain(
      'The charity has removed the campaign “Winter Warmth”, and with it your appeal “Sponsored swim”.',
    );
    expect(removal.text).toContain('it takes no more gifts.');
  });

  it('a take-down older than the window tells nobody (switching this on does not write about last month)', async () => {
    const t = await setupTestApp();
    const { campaign, fay, gus, setStatus } = await campaignWithAppeals(t);
    expect((await setStatus('draft')).status).toBe(200);
    await t.db
      .update(campaigns)
      .set({ updatedAt: new Date(Date.now() - (CAMPAIGN_DOWN_WINDOW_DAYS + 1) * DAY) })
      .where(eq(campaigns.id, campaign.id));
    const mailer = createMailer(t.db, readConfig(t.env), { log: () => {} });
    expect(
      await emailCampaignDownAppeals(t.db, mailer, {
        origin: ORIGIN,
        now: new Date(),
        supportEmail: 'help@give.example',
      }),
    ).toEqual({ sent: 0 });
    expect(await mailTo(t, [fay.email, gus.email])).toEqual([]);
  });
});
