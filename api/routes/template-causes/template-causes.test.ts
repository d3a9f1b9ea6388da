import { and, eq, isNull, sql } from 'drizzle-orm';
import { auditInsertIf } from '../../services/audit/append';
import { beforeAll, describe, expect, it } from 'vitest';
import { chunks, rowsPerStatement } from '../../../db/chunks';
import { auditLog, campaigns, templateCauses } from '../../../db/schema';
import { MAX_TEMPLATE_STORY } from '../../../domain/limits';
import { toShortId } from '../../../domain/ids';
import { createAppeal, createCampaign, createOrganization, signedIn } from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp } from '#test-app';

const stamp = () => crypto.randomUUID().slice(0, 8);

describe(`template causes kept by admins (decision 074, ${engineName})`, () => {
  let t: TestApp;
  let admin: string;
  let orgAdmin: string;
  let donor: string;
  beforeAll(async () => {
    t = await setupTestApp();
    const org = await createOrganization(t.db, { name: `Causes ${stamp()}` });
    admin = (await signedIn(t.db, 'admin')).token;
    orgAdmin = (await signedIn(t.db, 'org_admin', { organizationIds: [org.id] })).token;
    donor = (await signedIn(t.db, 'donor')).token;
  });

  const causes = (token?: string) => t.client(token).api['template-causes'];
  const offered = async () => bodyOf(await causes().$get({ query: {} }), 200);
  const create = (json: Record<string, unknown>, token = admin) =>
    t.request('/api/template-causes', { method: 'POST', token, json });
  const update = (id: string, json: Record<string, unknown>, token = admin) =>
    t.request(`/api/template-causes/${id}`, { method: 'PUT', token, json });
  const stored = async (id: string) => (await t.db.select().from(templateCauses).where(eq(templateCauses.id, id)))[0];
  const auditOf = (id: string) =>
    t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'template_cause'), eq(auditLog.targetId, id)))
      .orderBy(auditLog.at);

  it('adds a cause tied to a campaign: offered to fundraisers at once, with its audit row', async () => {
    const water = await createCampaign(t.db, { title: `Wells ${stamp()}` });
    const title = `Swim for Wells ${stamp()}`;
    const res = await create({
      title: `  ${title}  `,
      description: 'Swim a mile, fund a well.',
      story: '[[name]] is swimming a mile.\r\n\r\nEvery length helps.',
      campaign_id: toShortId(water.id),
    });
    expect(res.status).toBe(201);
    const cause = (await res.json()) as { _id: string };
    expect(cause).toMatchObject({
      title,
      story: '[[name]] is swimming a mile.\n\nEvery length helps.',
      campaign_id: water.id,
      campaign_title: water.title,
      retired_at: null,
    });
    expect((await offered()).find((c) => c._id === cause._id)).toMatchObject({ title, campaign_id: water.id });
    const [row] = await auditOf(cause._id);
    expect(row).toMatchObject({ action: 'template_cause.create', actorType: 'admin' });
    expect(row.changes).toMatchObject({ title: [null, title], campaignId: [null, water.id] });
  });

  it('changes only the fields sent, and records what changed', async () => {
    const cause = (await (await create({ title: `Bake ${stamp()}`, description: 'Bake', story: 'x' })).json()) as {
      _id: string;
    };
    const res = await update(cause._id, { description: 'Bake and sell' });
    expect(res.status).toBe(200);
    const after = await stored(cause._id);
    expect(after).toMatchObject({ description: 'Bake and sell', story: 'x', campaignId: null });
    const rows = await auditOf(cause._id);
    expect(rows.map((r) => r.action)).toEqual(['template_cause.create', 'template_cause.update']);
    expect(rows[1].changes).toEqual({ description: ['Bake', 'Bake and sell'] });

    // The same values again change nothing and log nothing.
    expect((await update(cause._id, { description: 'Bake and sell' })).status).toBe(200);
    expect(await auditOf(cause._id)).toHaveLength(2);
  });

  it('keeps a stock cover for the appeals started from it: set, changed, cleared, each logged', async () => {
    const res = await create({
      title: `Cycle ${stamp()}`,
      description: 'Cycle',
      story: '[[name]] cycles',
      image: '/images/demo/cause-7.png',
    });
    expect(res.status).toBe(201);
    const cause = (await res.json()) as { _id: string; image: string | null };
    expect(cause.image).toBe('/images/demo/cause-7.png');
    expect((await offered()).find((c) => c._id === cause._id)?.image).toBe('/images/demo/cause-7.png');
    expect((await auditOf(cause._id))[0].changes).toMatchObject({ image: [null, '/images/demo/cause-7.png'] });

    // Left out: unchanged; another cover: changed; '' or null: none. Each change logged with both sides.
    expect((await update(cause._id, { title: `Cycle far ${stamp()}` })).status).toBe(200);
    expect((await stored(cause._id)).image).toBe('/images/demo/cause-7.png');
    const changed = await update(cause._id, { image: '/images/demo/cause-2.png' });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ image: '/images/demo/cause-2.png' });
    expect((await update(cause._id, { image: '' })).status).toBe(200);
    expect((await stored(cause._id)).image).toBeNull();
    const rows = await auditOf(cause._id);
    expect(rows.map((r) => r.changes?.image).filter(Boolean)).toEqual([
      [null, '/images/demo/cause-7.png'],
      ['/images/demo/cause-7.png', '/images/demo/cause-2.png'],
      ['/images/demo/cause-2.png', null],
    ]);
    // A cover that is not the site's is refused, and the stored one stays.
    await update(cause._id, { image: '/images/demo/cause-3.png' });
    expect((await errorOf(await update(cause._id, { image: '/api/images/x/y.png' }), 400)).message).toMatch(/^image:/);
    expect((await stored(cause._id)).image).toBe('/images/demo/cause-3.png');
  });

  it('retires a cause: gone from /fund-raising, kept for admins and for an appeal started from it', async () => {
    const title = `Silence ${stamp()}`;
    const cause = (await (await create({ title, description: 'Quiet', story: '[[name]] is quiet' })).json()) as {
      _id: string;
    };
    const retired = await bodyOf(
      await causes(admin)[':id'].$put({ param: { id: cause._id }, json: { retired: true } }),
      200,
    );
    expect(retired.retired_at).toEqual(expect.any(String));
    expect((await offered()).some((c) => c._id === cause._id)).toBe(false);
    const all = await bodyOf(await causes(admin).$get({ query: { retired: 'true' } }), 200);
    expect(all.find((c) => c._id === cause._id)).toMatchObject({
      title,
      retired_at: retired.retired_at,
      appeals_started: 0,
    });

    // A fundraiser whose editor was open on it can still save the appeal.
    const campaign = await createCampaign(t.db, { title: `Open ${stamp()}` });
    const fundraiser = await signedIn(t.db, 'donor');
    const appeal = await t.request('/api/campaigns', {
      method: 'POST',
      token: fundraiser.token,
      json: {
        kind: 'appeal',
        campaign_id: campaign.id,
        title,
        description: 'Quiet',
        story: 'Ann is quiet',
        goal: 10_000,
        images: [{ Key: '/images/demo/cause-1.png', name: 'cause-1.png', size: 1234, type: 'image/png' }],
        template_cause_id: cause._id,
      },
    });
    expect(appeal.status, await appeal.clone().text()).toBe(201);
    const counted = await bodyOf(await causes(admin).$get({ query: { retired: 'true' } }), 200);
    expect(counted.find((c) => c._id === cause._id)?.appeals_started).toBe(1);
    // The public list carries no count.
    expect(Object.keys((await offered())[0])).not.toContain('appeals_started');

    // The edit form reads it alone, retired or not, with its count.
    expect(await bodyOf(await causes(admin)[':id'].$get({ param: { id: cause._id } }), 200)).toMatchObject({
      title,
      retired_at: retired.retired_at,
      appeals_started: 1,
    });

    // Retiring again keeps the first date; offering again clears it, and each is in the log once.
    await update(cause._id, { retired: true });
    expect((await stored(cause._id)).retiredAt?.toISOString()).toBe(retired.retired_at);
    expect((await update(cause._id, { retired: false })).status).toBe(200);
    expect((await offered()).some((c) => c._id === cause._id)).toBe(true);
    expect((await auditOf(cause._id)).map((r) => r.action)).toEqual([
      'template_cause.create',
      'template_cause.retire',
      'template_cause.offer',
    ]);
  });

  it('ties and unties a campaign, and refuses an appeal, a deleted campaign, a general fund or an unknown id', async () => {
    const cause = (await (await create({ title: `Tie ${stamp()}`, description: 'd', story: 's' })).json()) as {
      _id: string;
    };
    const campaign = await createCampaign(t.db, { title: `Tie to ${stamp()}` });
    const appeal = await createAppeal(t.db, campaign.id);
    const deleted = await createCampaign(t.db, { title: `Gone ${stamp()}`, status: 'deleted' });
    const generalFund = await createCampaign(t.db, { title: `General ${stamp()}`, kind: 'general_fund' });

    expect((await errorOf(await update(cause._id, { campaign_id: appeal.id }), 400)).message).toMatch(
      /campaign_id: this is an appeal/,
    );
    expect((await errorOf(await update(cause._id, { campaign_id: deleted.id }), 400)).message).toMatch(
      /campaign_id: this campaign is deleted/,
    );
    expect((await errorOf(await update(cause._id, { campaign_id: generalFund.id }), 400)).message).toMatch(
      /campaign_id: this is a general fund/,
    );
    expect((await errorOf(await update(cause._id, { campaign_id: crypto.randomUUID() }), 400)).message).toMatch(
      /campaign_id: no campaign with this id/,
    );
    expect((await stored(cause._id)).campaignId).toBeNull();

    expect((await update(cause._id, { campaign_id: campaign.id })).status).toBe(200);
    // An update that leaves campaign_id out keeps it; null unties it.
    await update(cause._id, { title: `Tie again ${stamp()}` });
    expect((await stored(cause._id)).campaignId).toBe(campaign.id);
    await update(cause._id, { campaign_id: null });
    expect((await stored(cause._id)).campaignId).toBeNull();
  });

  it('refuses bad bodies with a clear message and stores nothing', async () => {
    const before = (await t.db.select().from(templateCauses)).length;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ description: 'd', story: 's' }, /title/],
      [{ title: '   ', description: 'd', story: 's' }, /title: enter a title/],
      [{ title: 'x'.repeat(121), description: 'd', story: 's' }, /title: use at most 120 characters/],
      [{ title: 't', description: 'd'.repeat(151), story: 's' }, /description: use at most 150 characters/],
      [{ title: 't', description: 'd', story: 's'.repeat(MAX_TEMPLATE_STORY + 1) }, /story: use at most 10000/],
      [{ title: '<b>t</b>', description: 'd', story: 's' }, /title: write plain text/],
      [{ title: 't', description: 'd', story: 's', image: 'x' }, /image: must be one of the site’s cover images/],
      [{ title: 't', description: 'd', story: 's', image: '/images/demo/cause-10.png' }, /image: must be one of/],
      [{ title: 't', description: 'd', story: 's', image: 'https://example.com/a.png' }, /image: must be one of/],
      [{ title: 't', description: 'd', story: 's', image: 7 }, /image: must be one of/],
      [{ title: 42, description: 'd', story: 's' }, /title/],
    ];
    for (const [json, message] of cases) {
      expect((await errorOf(await create(json), 400)).message, JSON.stringify(json).slice(0, 80)).toMatch(message);
    }
    const malformed = await t.request('/api/template-causes', {
      method: 'POST',
      token: admin,
      body: '{"title":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    // Past the API's 100 KB body limit: refused before it is read.
    await errorOf(await create({ title: 't', description: 'd', story: 's'.repeat(200 * 1024) }), 413);
    expect((await t.db.select().from(templateCauses)).length).toBe(before);
  });

  it('answers 404 for an unknown or malformed id, and a 400 for a bad update', async () => {
    await errorOf(await update(crypto.randomUUID(), { retired: true }), 404);
    await errorOf(await update('not-an-id', { retired: true }), 404);
    const cause = (await (await create({ title: `Bad ${stamp()}`, description: 'd', story: 's' })).json()) as {
      _id: string;
    };
    expect((await errorOf(await update(cause._id, { retired: 'yes' }), 400)).message).toMatch(/retired/);
    expect((await errorOf(await update(cause._id, { title: '' }), 400)).message).toMatch(/title: enter a title/);
    expect((await stored(cause._id)).title).toMatch(/^Bad /);
  });

  it('keeps causes to admins: organization admins and donors are refused, and so is the retired list', async () => {
    for (const token of [orgAdmin, donor]) {
      await errorOf(await create({ title: 'Mine', description: 'd', story: 's' }, token), 403);
      await errorOf(await causes(token).$get({ query: { retired: 'true' } }), 403);
    }
    await errorOf(await causes().$get({ query: { retired: 'true' } }), 401);
    // Authorized before the query is read: a guest's malformed ?retired= is a 401 too, not a 400.
    await errorOf(await t.request('/api/template-causes?retired=yes'), 401);
    expect((await errorOf(await t.request('/api/template-causes?retired=yes', { token: admin }), 400)).message).toMatch(
      /retired/,
    );
    const cause = (await (await create({ title: `Kept ${stamp()}`, description: 'd', story: 's' })).json()) as {
      _id: string;
    };
    await errorOf(await update(cause._id, { title: 'Taken' }, orgAdmin), 403);
    await errorOf(await causes(orgAdmin)[':id'].$get({ param: { id: cause._id } }), 403);
    await errorOf(await causes()[':id'].$get({ param: { id: cause._id } }), 401);
    await errorOf(await causes(admin)[':id'].$get({ param: { id: crypto.randomUUID() } }), 404);
    expect((await stored(cause._id)).title).toMatch(/^Kept /);
  });

  it('logs an edit and a retire sent together as both, each with its own changes', async () => {
    const cause = (await (await create({ title: `Both ${stamp()}`, description: 'd', story: 's' })).json()) as {
      _id: string;
    };
    expect((await update(cause._id, { title: `Both renamed ${stamp()}`, retired: true })).status).toBe(200);
    const rows = await auditOf(cause._id);
    expect(rows.map((r) => r.action)).toEqual([
      'template_cause.create',
      'template_cause.update',
      'template_cause.retire',
    ]);
    expect(Object.keys(rows[1].changes)).toEqual(['title']);
    expect(Object.keys(rows[2].changes)).toEqual(['retiredAt']);
  });

  it('logs a retire only when its guarded write changed the row (of two admins at once, one)', async () => {
    // The batch updateTemplateCause sends, run against a cause another admin has just retired.
    const [cause] = await t.db
      .insert(templateCauses)
      .values({ title: `Raced ${stamp()}`, description: 'd', story: 's', retiredAt: new Date('2026-01-01T00:00:00Z') })
      .returning();
    const actor = { user: null, requestId: null };
    const retire = (retiredAt: Date) =>
      t.db.batch([
        t.db
          .update(templateCauses)
          .set({ retiredAt })
          .where(and(eq(templateCauses.id, cause.id), isNull(templateCauses.retiredAt))),
        auditInsertIf(t.db, actor, sql`changes() = 1`, {
          action: 'template_cause.retire',
          targetType: 'template_cause',
          targetId: cause.id,
        }),
      ]);
    await retire(new Date());
    expect(await auditOf(cause.id)).toHaveLength(0);
    expect((await stored(cause.id)).retiredAt?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    // Offered, the same batch retires it and logs it once.
    await t.db.update(templateCauses).set({ retiredAt: null }).where(eq(templateCauses.id, cause.id));
    await retire(new Date());
    expect(await auditOf(cause.id)).toHaveLength(1);
  });

  it('names the tied campaign on the public list only while it is on the site and takes appeals', async () => {
    const open = await createCampaign(t.db, { title: `Open ${stamp()}` });
    const cause = (await (
      await create({ title: `Named ${stamp()}`, description: 'd', story: 's', campaign_id: open.id })
    ).json()) as { _id: string };
    const titleOf = async () => (await offered()).find((c) => c._id === cause._id)?.campaign_title;
    expect(await titleOf()).toBe(open.title);
    // Ended yesterday: the editor would not choose it, so the card does not name it.
    await t.db.update(campaigns).set({ dateTo: '2020-01-01' }).where(eq(campaigns.id, open.id));
    expect(await titleOf()).toBeNull();
    await t.db.update(campaigns).set({ dateTo: null, status: 'draft' }).where(eq(campaigns.id, open.id));
    expect(await titleOf()).toBeNull();
    await t.db.update(campaigns).set({ status: 'approved' }).where(eq(campaigns.id, open.id));
    expect(await titleOf()).toBe(open.title);
  });
  // Last: its hundred older causes fill the offered list.
  it('counts the appeals started from each of a hundred causes, and offers no more than a hundred at once', async () => {
    const campaign = await createCampaign(t.db, { title: `Many ${stamp()}` });
    const rows = Array.from({ length: 100 }, (_, i) => ({
      title: `Cause ${i} ${stamp()}`,
      description: 'd',
      story: 's',
      // Older than every cause above, so these hundred are the list's page.
      createdAt: new Date(Date.UTC(2020, 0, 1, 0, i)),
    }));
    const inserted: { id: string }[] = [];
    for (const piece of chunks(rows, rowsPerStatement(5)))
      inserted.push(...(await t.db.insert(templateCauses).values(piece).returning({ id: templateCauses.id })));
    const last = inserted[99].id;
    await createAppeal(t.db, campaign.id, { templateCauseId: last });
    await createAppeal(t.db, campaign.id, { templateCauseId: last });
    await createAppeal(t.db, campaign.id, { templateCauseId: last, status: 'deleted' });
    const all = await bodyOf(await causes(admin).$get({ query: { retired: 'true' } }), 200);
    // The offered hundred (more ids than one D1 statement binds), then the retired ones of the tests above.
    expect(all.filter((c) => !c.retired_at)).toHaveLength(100);
    expect(all.slice(100).every((c) => c.retired_at)).toBe(true);
    expect(all.find((c) => c._id === last)?.appeals_started).toBe(2);
    expect(all.find((c) => c._id === inserted[0].id)?.appeals_started).toBe(0);

    // With a hundred offered, a new cause, or one offered again, must wait for one to retire.
    const full = /At most 100 causes are offered to fundraisers at once/;
    expect((await errorOf(await create({ title: 'One more', description: 'd', story: 's' }), 400)).message).toMatch(
      full,
    );
    const retiredOne = all.find((c) => c.retired_at)!;
    expect((await errorOf(await update(retiredOne._id, { retired: false }), 400)).message).toMatch(full);
    expect((await stored(retiredOne._id)).retiredAt).not.toBeNull();
  });
});
