import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { outbox } from '../../../db/schema';
import { toShortId } from '../../../domain/ids';
import {
  createAppeal,
  createCampaign,
  createDonation,
  createMonthlyGift,
  createOrganization,
  signedIn,
} from '../../../tests/factories';
import { engineName, setupTestApp, type TestApp } from '#test-app';
import { readConfig } from '../../lib/config';
import { createMailer, type Mailer } from '../mail/mailer';
import { appealTakenDownKey, emailTakenDownAppeal, type TakenDownStatus } from './appeal-taken-down';

/** A fundraiser's live appeal (or held draft) under an organization's campaign, that organization's admin, and £25 given to it. */
async function liveAppeal(
  t: TestApp,
  {
    organizationEmail = 'appeals@charity.example',
    status = 'approved',
  }: { organizationEmail?: string | null; status?: 'approved' | 'draft' } = {},
) {
  const org = await createOrganization(t.db, { email: organizationEmail, appealsNeedApproval: status === 'draft' });
  const campaign = await createCampaign(t.db, { organizationId: org.id });
  const orgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [org.id] });
  const fay = await signedIn(t.db, 'donor', {
    overrides: { firstName: 'Fay', email: `fay-${crypto.randomUUID().slice(0, 8)}@example.org` },
  });
  const appeal = await createAppeal(t.db, campaign.id, {
    title: 'Sponsored swim',
    organizationId: org.id,
    createdBy: fay.user.id,
    status,
  });
  await createDonation(t.db, { donorId: fay.user.id, campaignId: campaign.id, appealId: appeal.id, amount: 2500 });
  const setStatus = (status: 'approved' | TakenDownStatus, token = orgAdmin.token) =>
    t.client(token).api.campaigns[':id'].$put({ param: { id: appeal.id }, json: { status } });
  return { appeal, fay, orgAdmin, setStatus };
}

/** The taken-down emails about one appeal (the workers engine keeps a file's rows from test to test; D1 refuses a LIKE pattern this long). */
const takenDown = (t: TestApp, appealId: string) =>
  t.db
    .select()
    .from(outbox)
    .where(inArray(outbox.key, [appealTakenDownKey(appealId, 'draft'), appealTakenDownKey(appealId, 'deleted')]));

describe(`appeal taken down emails (${engineName})`, () => {
  it('tells the fundraiser when the charity moves their live appeal back to a draft, once', async () => {
    const t = await setupTestApp();
    const { appeal, fay, setStatus } = await liveAppeal(t);
    expect((await setStatus('draft')).status).toBe(200);

    const [mail] = await takenDown(t, appeal.id);
    expect(mail.key).toBe(appealTakenDownKey(appeal.id, 'draft'));
    expect(mail.to).toBe(fay.user.email);
    expect(mail.subject).toBe('Your appeal Sponsored swim is off the site for now');
    expect(mail.text).toContain('Hello Fay,');
    expect(mail.text).toContain('The charity has moved your appeal “Sponsored swim” back to a draft.');
    expect(mail.text).toContain('it takes no gifts until the charity approves it again.');
    expect(mail.text).toContain('The £25.00 given to it so far stays with the charity');
    // No monthly gift runs to it: nothing is said of them.
    expect(mail.text).not.toContain('monthly');
    expect(mail.text).toContain('write to the charity: appeals@charity.example');
    expect(mail.text).toMatch(/See it in My Appeals: \S*\/dashboard\/active-appeals\n/);
    // Its page answers 404 now: the email does not send the fundraiser there.
    expect(mail.text).not.toContain(`/appeals/${toShortId(appeal.id)}`);
    expect(mail.html).toContain('<strong>Sponsored swim</strong>');
    expect(mail.html).toContain('href="mailto:appeals@charity.example"');
    expect(mail.html).not.toContain('See your appeal');

    // Saved as a draft again, then approved and drafted again within the outbox's 30 days: one email.
    expect((await setStatus('draft')).status).toBe(200);
    expect((await setStatus('approved')).status).toBe(200);
    expect((await setStatus('draft')).status).toBe(200);
    expect(await takenDown(t, appeal.id)).toHaveLength(1);
  });

  it("tells the fundraiser when the charity deletes their appeal, naming the site's address when the organization has none", async () => {
    const t = await setupTestApp();
    const { appeal, fay, setStatus } = await liveAppeal(t, { organizationEmail: null });
    // Two monthly gifts still set up to it (one paused), one cancelled, and one to the campaign alone.
    const monthly = (status: 'active' | 'paused' | 'cancelled', appealId: string | null = appeal.id) =>
      createMonthlyGift(t.db, { donorId: fay.user.id, campaignId: appeal.campaignId!, appealId, status });
    await monthly('active');
    await monthly('paused');
    await monthly('cancelled');
    await monthly('active', null);
    expect((await setStatus('deleted')).status).toBe(200);
    const [mail] = await takenDown(t, appeal.id);
    expect(mail.key).toBe(appealTakenDownKey(appeal.id, 'deleted'));
    expect(mail.subject).toBe('Your appeal Sponsored swim has been removed');
    expect(mail.text).toContain('The charity has removed your appeal “Sponsored swim”.');
    expect(mail.text).toContain('it takes no more gifts.');
    expect(mail.text).toContain(
      '2 monthly gifts to it are still set up; they continue to go to the charity unless their donors or the charity stop them.',
    );
    expect(mail.html).toContain('2 monthly gifts to it are still set up;');
    expect(mail.text).toContain(`write to the charity: ${readConfig(t.env).supportEmail}`);
    // Nowhere to see it: no closing link at all.
    expect(mail.text).not.toContain('See your appeal');
    expect(mail.text).not.toContain('My Appeals');
    expect(mail.html).not.toContain(`/appeals/${toShortId(appeal.id)}`);
  });

  it('tells nobody when an admin takes down an appeal of their own, or a held draft stays a draft', async () => {
    const t = await setupTestApp();
    const { appeal, orgAdmin, setStatus } = await liveAppeal(t);
    // The organization's admin started an appeal themselves: nobody else to tell.
    const own = await createAppeal(t.db, appeal.campaignId!, {
      organizationId: appeal.organizationId,
      createdBy: orgAdmin.user.id,
      status: 'approved',
    });
    const setOwn = (status: TakenDownStatus) =>
      t.client(orgAdmin.token).api.campaigns[':id'].$put({ param: { id: own.id }, json: { status } });
    expect((await setOwn('draft')).status).toBe(200);
    expect((await setOwn('deleted')).status).toBe(200);
    expect(await takenDown(t, own.id)).toEqual([]);
    // The fundraiser may not take their appeal down themselves (status is the charity's to set).
    expect((await setStatus('deleted', (await liveAppeal(t)).fay.token)).status).toBe(403);

    // A held appeal (a draft the charity has not approved yet) saved as a draft again: nothing changed.
    const held = await liveAppeal(t, { status: 'draft' });
    expect((await held.setStatus('draft')).status).toBe(200);
    expect(await takenDown(t, held.appeal.id)).toEqual([]);
    // Declined: the charity deletes the held draft, and its fundraiser hears so.
    expect((await held.setStatus('deleted')).status).toBe(200);
    expect((await takenDown(t, held.appeal.id)).map((mail) => mail.key)).toEqual([
      appealTakenDownKey(held.appeal.id, 'deleted'),
    ]);
  });

  it('an email that cannot be written is logged, and the status change stands', async () => {
    const t = await setupTestApp();
    const { appeal, setStatus } = await liveAppeal(t);
    expect((await setStatus('deleted')).status).toBe(200);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken: Mailer = {
      ...createMailer(t.db, readConfig(t.env), { log: () => {} }),
      send: () => Promise.reject(new Error('database busy')),
    };
    const options = { origin: 'https://give.example', now: new Date(), supportEmail: 'help@give.example' };
    expect(await emailTakenDownAppeal(t.db, broken, appeal.id, 'deleted', options)).toBe(false);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('appeal taken down email failed'));
    error.mockRestore();
    // Asked about a status the appeal no longer has: nobody is told.
    const mailer = createMailer(t.db, readConfig(t.env), { log: () => {} });
    expect(await emailTakenDownAppeal(t.db, mailer, appeal.id, 'draft', options)).toBe(false);
    const [stored] = await t.db
      .select()
      .from(outbox)
      .where(eq(outbox.key, appealTakenDownKey(appeal.id, 'deleted')));
    expect(stored).toBeDefined();
  });
});
