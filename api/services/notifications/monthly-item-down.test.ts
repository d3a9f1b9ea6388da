import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { campaigns, monthlyGifts, outbox } from '../../../db/schema';
import {
  createAppeal,
  createCampaign,
  createMonthlyGift,
  createOrganization,
  createUser,
  signedIn,
} from '../../../tests/factories';
import { engineName, setupTestApp, type TestApp } from '#test-app';
import { readConfig } from '../../lib/config';
import { runMailRetry } from '../housekeeping/scheduled';
import { createMailer, type Mailer } from '../mail/mailer';
import { verifyMonthlyLink } from '../monthly-gifts/link-tokens';
import { emailMonthlyDonorsItemDown } from './monthly-item-down';

const ORIGIN = 'https://give.example';
const DAY = 24 * 60 * 60 * 1000;

const donor = (t: TestApp, firstName: string, fields: Partial<Parameters<typeof createUser>[1]> = {}) =>
  createUser(t.db, {
    firstName,
    email: `${firstName.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.org`,
    ...fields,
  });

/** An organization's campaign with a live appeal under it, its admin, and the monthly gifts to each. */
async function givenMonthly(t: TestApp) {
  const org = await createOrganization(t.db, { name: 'Wells for Hope', charityNumber: '1187342' });
  const campaign = await createCampaign(t.db, { title: 'Winter Warmth', organizationId: org.id });
  const appeal = await createAppeal(t.db, campaign.id, { title: 'Sponsored swim', organizationId: org.id });
  const orgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [org.id] });
  const people = {
    ann: await donor(t, 'Ann'),
    bob: await donor(t, 'Bob'),
    cat: await donor(t, 'Cat'),
    dan: await donor(t, 'Dan'),
    eve: await donor(t, 'Eve', { erasedAt: new Date() }),
    fin: await donor(t, 'Fin'),
  };
  const gift = (who: keyof typeof people, fields: Partial<typeof monthlyGifts.$inferInsert> = {}) =>
    createMonthlyGift(t.db, { donorId: people[who].id, campaignId: campaign.id, appealId: appeal.id, ...fields });
  const gifts = {
    ann: await gift('ann', { amount: 1500 }),
    bob: await gift('bob', { status: 'paused' }),
    cat: await gift('cat', { status: 'past_due' }),
    dan: await gift('dan', { status: 'cancelled' }),
    eve: await gift('eve'),
    // To the campaign alone, not the appeal.
    fin: await gift('fin', { appealId: null, amount: 2000 }),
  };
  const setStatus = (id: string, status: 'approved' | 'draft' | 'deleted') =>
    t.client(orgAdmin.token).api.campaigns[':id'].$put({ param: { id }, json: { status } });
  return { campaign, appeal, people, gifts, setStatus };
}

const itemDownMail = async (t: TestApp, giftIds: string[]) =>
  (await t.db.select().from(outbox)).filter((row) =>
    giftIds.some((id) => row.key?.startsWith(`monthly-item-down:${id}:`)),
  );
const mailerOf = (t: TestApp): Mailer => createMailer(t.db, readConfig(t.env), { log: () => {} });
const run = (t: TestApp, now = new Date(), mailer = mailerOf(t)) =>
  emailMonthlyDonorsItemDown({ db: t.db, mailer, config: readConfig(t.env), origin: ORIGIN, now });

describe(`monthly donors told when what they give to leaves the site (${engineName})`, () => {
  it('an appeal deleted: each donor whose monthly gift supports it is told once, with a cancel link that needs no sign-in', async () => {
    const t = await setupTestApp();
    const { appeal, people, gifts, setStatus } = await givenMonthly(t);
    const all = Object.values(gifts).map((g) => g.id);
    expect((await setStatus(appeal.id, 'deleted')).status).toBe(200);
    // The five-minute run (with the fundraisers' emails of decision 066).
    expect(await runMailRetry({ db: t.db, config: readConfig(t.env), now: new Date() })).toMatchObject({
      monthly_item_down_emails: 3,
    });
    const mails = await itemDownMail(t, all);
    expect(mails.map((m) => m.to).sort()).toEqual([people.ann.email, people.bob.email, people.cat.email].sort());

    const ann = mails.find((m) => m.to === people.ann.email)!;
    expect(ann.subject).toBe('“Sponsored swim” is no longer on the site: your monthly gift');
    expect(ann.text).toContain('Dear Ann,');
    expect(ann.text).toContain('The appeal your monthly gift supports is no longer on the site');
    expect(ann.text).toContain(
      '“Sponsored swim”, the appeal your monthly gift of £15.00 supports, has been taken off the site.',
    );
    expect(ann.text).toContain(
      'Your gift continues to go to Wells for Hope each month, as you set it up: you need do nothing to keep giving.',
    );
    expect(ann.text).toMatch(/My Donations: \S+\/dashboard\/donations\/me\./);
    expect(ann.text).toContain('Registered charity number 1187342');
    // The cancel link is signed for this gift alone.
    const link = /Cancel my monthly gift: (\S+)/.exec(ann.text ?? '')![1];
    expect(link).toMatch(/^\S+\/monthly\/cancel\?token=/);
    const token = decodeURIComponent(new URL(link).searchParams.get('token')!);
    expect(await verifyMonthlyLink(readConfig(t.env).authSecret, 'cancel', token)).toMatchObject({
      ok: true,
      subscriptionId: gifts.ann.id,
    });
    expect(ann.html).toContain('>Cancel my monthly gift</a>');
    expect(ann.html).toContain('/monthly/cancel?token=');

    // Claimed: the next run tells nobody again.
    expect(await run(t)).toEqual({ sent: 0, released: 0, back: 0 });
    const claimed = await t.db.select().from(monthlyGifts).where(inArray(monthlyGifts.id, all));
    expect(
      claimed
        .filter((g) => g.itemDownToldAt)
        .map((g) => g.id)
        .sort(),
    ).toEqual([gifts.ann.id, gifts.bob.id, gifts.cat.id].sort());
  });

  it('a campaign set to draft tells its own monthly donors and its appeals’; approved again, a later take-down is told again', async () => {
    const t = await setupTestApp();
    const { campaign, people, gifts, setStatus } = await givenMonthly(t);
    const all = Object.values(gifts).map((g) => g.id);
    expect((await setStatus(campaign.id, 'draft')).status).toBe(200);
    expect(await run(t)).toEqual({ sent: 4, released: 0, back: 0 });
    const mails = await itemDownMail(t, all);
    const fin = mails.find((m) => m.to === people.fin.email)!;
    expect(fin.subject).toBe('“Winter Warmth” is no longer on the site: your monthly gift');
    expect(fin.text).toContain(
      '“Winter Warmth”, the campaign your monthly gift of £20.00 supports, has been taken off the site.',
    );
    const ann = mails.find((m) => m.to === people.ann.email)!;
    expect(ann.text).toContain(
      '“Sponsored swim”, the appeal your monthly gift of £15.00 supports, has been taken off the site, with its campaign “Winter Warmth”.',
    );

    // Back on the site: each donor told of the take-down is told it is back, and the claims go.
    expect((await setStatus(campaign.id, 'approved')).status).toBe(200);
    expect(await run(t)).toEqual({ sent: 0, released: 4, back: 4 });
    const backMails = (await t.db.select().from(outbox)).filter((row) =>
      all.some((id) => row.key?.startsWith(`monthly-item-back:${id}:`)),
    );
    expect(backMails.map((m) => m.to).sort()).toEqual(
      [people.ann.email, people.bob.email, people.cat.email, people.fin.email].sort(),
    );
    const annBack = backMails.find((m) => m.to === people.ann.email)!;
    expect(annBack.subject).toBe('“Sponsored swim” is back on the site: your monthly gift');
    expect(annBack.text).toContain(
      'We wrote when “Sponsored swim”, the appeal your monthly gift of £15.00 supports, left the site. It is back',
    );
    expect(annBack.text).toMatch(/See the appeal: https:\/\/give\.example\/appeals\/[A-Za-z0-9_-]{22}\b/);
    expect(annBack.text).toContain('Your gift went on to Wells for Hope while it was away, and goes on as before');
    const finBack = backMails.find((m) => m.to === people.fin.email)!;
    expect(finBack.text).toMatch(/See the campaign: https:\/\/give\.example\/campaigns\//);
    // Told once: the next run finds nothing.
    expect(await run(t)).toEqual({ sent: 0, released: 0, back: 0 });
    // Deleted a minute later: told again, under the new take-down's key.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await setStatus(campaign.id, 'deleted')).status).toBe(200);
    expect(await run(t)).toEqual({ sent: 4, released: 0, back: 0 });
    expect(await itemDownMail(t, all)).toHaveLength(8);
  });

  it('a take-down older than the window tells nobody, and an email that could not be written is tried again', async () => {
    const t = await setupTestApp();
    const { appeal, gifts } = await givenMonthly(t);
    const all = Object.values(gifts).map((g) => g.id);
    // Taken down 4 days ago: switching this on does not write about last week.
    await t.db
      .update(campaigns)
      .set({ status: 'draft', updatedAt: new Date(Date.now() - 4 * DAY) })
      .where(eq(campaigns.id, appeal.id));
    expect(await run(t)).toEqual({ sent: 0, released: 0, back: 0 });
    expect(await itemDownMail(t, all)).toEqual([]);

    // Taken down now, while the outbox refuses writes: nothing claimed, the next run sends.
    await t.db.update(campaigns).set({ status: 'deleted', updatedAt: new Date() }).where(eq(campaigns.id, appeal.id));
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken: Mailer = { ...mailerOf(t), send: () => Promise.reject(new Error('database busy')) };
    expect(await run(t, new Date(), broken)).toEqual({ sent: 0, released: 0, back: 0 });
    expect(error).toHaveBeenCalledWith(expect.stringContaining('monthly item down email failed'));
    error.mockRestore();
    const rows = await t.db.select().from(monthlyGifts).where(inArray(monthlyGifts.id, all));
    expect(rows.every((g) => g.itemDownToldAt === null)).toBe(true);
    expect(await run(t)).toEqual({ sent: 3, released: 0, back: 0 });
  });

  it('back on the site: a gift cancelled meanwhile is released without a word, and an email not written keeps its claim', async () => {
    const t = await setupTestApp();
    const { appeal, people, gifts, setStatus } = await givenMonthly(t);
    expect((await setStatus(appeal.id, 'draft')).status).toBe(200);
    expect(await run(t)).toEqual({ sent: 3, released: 0, back: 0 });
    await t.db.update(monthlyGifts).set({ status: 'cancelled' }).where(eq(monthlyGifts.id, gifts.bob.id));
    expect((await setStatus(appeal.id, 'approved')).status).toBe(200);

    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken: Mailer = { ...mailerOf(t), send: () => Promise.reject(new Error('database busy')) };
    // Bob's gift is cancelled: nothing to write, so his claim goes; Ann's and Cat's stay for the next run.
    expect(await run(t, new Date(), broken)).toEqual({ sent: 0, released: 1, back: 0 });
    expect(error).toHaveBeenCalledWith(expect.stringContaining('monthly item back email failed'));
    error.mockRestore();
    expect(await run(t)).toEqual({ sent: 0, released: 2, back: 2 });
    const ours = new Set(Object.values(gifts).map((g) => g.id));
    const backMails = (await t.db.select().from(outbox)).filter((row) =>
      [...ours].some((id) => row.key?.startsWith(`monthly-item-back:${id}:`)),
    );
    expect(backMails.map((m) => m.to).sort()).toEqual([people.ann.email, people.cat.email].sort());
    const rows = await t.db
      .select()
      .from(monthlyGifts)
      .where(
        inArray(
          monthlyGifts.id,
          Object.values(gifts).map((g) => g.id),
        ),
      );
    expect(rows.every((g) => g.itemDownToldAt === null)).toBe(true);
  });
});
