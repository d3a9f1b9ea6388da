import { eq, like } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { appealNotifications, outbox } from '../../../db/schema';
import { londonDayFromToday } from '../../../domain/dates';
import { formatLongUkDay } from '../../../domain/giving-ends';
import { toShortId } from '../../../domain/ids';
import { createCampaign, createOrganization, signedIn } from '../../../tests/factories';
import { bodyOf, engineName, setupTestApp, type TestApp } from '#test-app';
import { readConfig } from '../../lib/config';
import { createMailer, type Mailer } from '../mail/mailer';
import { appealApprovedKey, emailApprovedAppeal } from './appeal-approved';
import { emailOpenedAppeals } from './appeal-opened';

const demoImage = { Key: '/images/demo/cause-1.png', name: 'cause-1.png', size: 1234, type: 'image/png' };

/** An organization that holds new appeals for review, its admin, and a fundraiser's held appeal. */
async function heldAppeal(t: TestApp, dates: { from?: string | null } = {}) {
  const org = await createOrganization(t.db, { appealsNeedApproval: true });
  const campaign = await createCampaign(t.db, { organizationId: org.id });
  const orgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [org.id] });
  const fay = await signedIn(t.db, 'donor', {
    overrides: { firstName: 'Fay', email: `fay-${crypto.randomUUID().slice(0, 8)}@example.org` },
  });
  const res = await t.client(fay.token).api.campaigns.$post({
    json: {
      title: 'Sponsored swim',
      description: 'Lengths for clean water',
      goal: 20_000,
      images: [demoImage],
      campaign_id: campaign.id,
      ...(dates.from ? { date: { from: dates.from, to: null } } : {}),
    },
  });
  const appeal = await bodyOf(res, 201);
  expect(appeal.status).toBe('draft');
  const setStatus = (status: 'approved' | 'draft', token = orgAdmin.token) =>
    t.client(token).api.campaigns[':id'].$put({ param: { id: appeal._id }, json: { status } });
  return { appeal, fay, orgAdmin, setStatus };
}

const mailOf = (t: TestApp, appealId: string) =>
  t.db
    .select()
    .from(outbox)
    .where(eq(outbox.key, appealApprovedKey(appealId)));
const claimOf = async (t: TestApp, appealId: string) =>
  (await t.db.select().from(appealNotifications).where(eq(appealNotifications.appealId, appealId)))[0]?.openedSentAt ??
  null;

describe(`appeal approved emails (${engineName})`, () => {
  it('tells the fundraiser when the charity approves their held appeal, with the link to share, once', async () => {
    const t = await setupTestApp();
    const { appeal, fay, setStatus } = await heldAppeal(t);
    expect(await mailOf(t, appeal._id)).toEqual([]);
    expect((await setStatus('approved')).status).toBe(200);

    const [mail] = await mailOf(t, appeal._id);
    expect(mail.to).toBe(fay.user.email);
    expect(mail.subject).toBe('Your appeal Sponsored swim is approved');
    expect(mail.text).toContain('Hello Fay,');
    expect(mail.text).toContain('The charity has approved your appeal “Sponsored swim”.');
    expect(mail.text).toContain('It is open for gifts now: share its link');
    expect(mail.text).toContain(`/appeals/${toShortId(appeal._id)}`);
    expect(mail.html).toContain('<strong>Sponsored swim</strong>');
    // Open from now: the scheduled "now open" email is claimed, so it does not follow.
    expect(await claimOf(t, appeal._id)).not.toBeNull();

    // Back to draft and approved again: one email all the same.
    expect((await setStatus('draft')).status).toBe(200);
    expect((await setStatus('approved')).status).toBe(200);
    expect(await t.db.select().from(outbox).where(like(outbox.key, 'appeal-approved:%'))).toHaveLength(1);
  });

  it('says the day an appeal approved before its start date opens, and the "now open" email follows that morning', async () => {
    const t = await setupTestApp();
    const opens = londonDayFromToday(5);
    const { appeal, setStatus } = await heldAppeal(t, { from: opens });
    expect((await setStatus('approved')).status).toBe(200);
    const [mail] = await mailOf(t, appeal._id);
    expect(mail.text).toContain(
      `It opens for gifts on ${formatLongUkDay(opens)}; we will email you that morning, when it is time to share it.`,
    );
    expect(await claimOf(t, appeal._id)).toBeNull();
    // 09:00 in London (UTC in winter, an hour less in summer: 09:00 UTC is after 08:00 either way).
    const thatMorning = new Date(`${opens}T09:00:00Z`);
    const mailer = createMailer(t.db, readConfig(t.env), { log: () => {} });
    expect(await emailOpenedAppeals(t.db, mailer, { origin: 'https://give.example', now: thatMorning })).toEqual({
      sent: 1,
    });
  });

  it('tells nobody when the creator approves their own appeal, or the appeal is not approved', async () => {
    const t = await setupTestApp();
    const { appeal, setStatus, orgAdmin } = await heldAppeal(t);
    expect((await setStatus('draft')).status).toBe(200);
    expect(await mailOf(t, appeal._id)).toEqual([]);
    // The organization's admin makes and approves an appeal of their own: nobody else to tell.
    const own = await bodyOf(
      await t.client(orgAdmin.token).api.campaigns.$post({
        json: {
          title: 'Staff walk',
          description: 'Miles for pumps',
          goal: 5_000,
          images: [demoImage],
          campaign_id: appeal.campaign_id!,
          status: 'draft',
        },
      }),
      201,
    );
    await t.client(orgAdmin.token).api.campaigns[':id'].$put({ param: { id: own._id }, json: { status: 'approved' } });
    expect(await mailOf(t, own._id)).toEqual([]);
  });

  it('an email that cannot be written is logged, and the approval stands', async () => {
    const t = await setupTestApp();
    const { appeal, setStatus } = await heldAppeal(t);
    // Approved with the mail working, then told again through a broken mailer: logged, false.
    expect((await setStatus('approved')).status).toBe(200);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken: Mailer = {
      ...createMailer(t.db, readConfig(t.env), { log: () => {} }),
      send: () => Promise.reject(new Error('database busy')),
    };
    expect(
      await emailApprovedAppeal(t.db, broken, appeal._id, { origin: 'https://give.example', now: new Date() }),
    ).toBe(false);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('appeal approved email failed'));
    error.mockRestore();
    const [stored] = await t.db
      .select()
      .from(outbox)
      .where(eq(outbox.key, appealApprovedKey(appeal._id)));
    expect(stored).toBeDefined();
  });
});
