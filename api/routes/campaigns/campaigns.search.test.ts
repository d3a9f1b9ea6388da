import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { campaigns, users } from '../../../db/schema';
import { createAppeal, createCampaign, createUser, signedIn } from '../../../tests/factories';
import { LIST_PAGE_SIZE, loadDiscover } from '../../../src/lib/server/discover';
import { SEARCH_COUNT_CAP, searchCampaignsQuery } from '../../services/campaigns/read';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp } from '#test-app';

describe(`searching the lists by title and fundraiser (${engineName})`, () => {
  let t: TestApp;
  let parentId: string;
  let fundraiserId: string;

  const search = async (q: string, path: 'appeals' | 'campaigns' = 'appeals') => {
    const api = t.client().api;
    const res =
      path === 'appeals' ? await api.appeals.$get({ query: { q } }) : await api.campaigns.$get({ query: { q } });
    return (await bodyOf(res, 200)).map((item) => item.title).sort();
  };

  beforeAll(async () => {
    t = await setupTestApp();
    const parent = await createCampaign(t.db, { title: 'Zephyr Wells Campaign' });
    parentId = parent.id;
    const fundraiser = await createUser(t.db, { firstName: 'Siobhán', lastName: 'Quennell' });
    fundraiserId = fundraiser.id;
    await createAppeal(t.db, parentId, { title: 'Zephyr swim for clean water', createdBy: fundraiser.id });
    await createAppeal(t.db, parentId, { title: 'Zephyr bake sale' });
    await createAppeal(t.db, parentId, { title: 'Zephyr draft idea', status: 'draft' });
    const hidden = await createCampaign(t.db, { title: 'Zephyr hidden campaign', status: 'draft' });
    await createAppeal(t.db, hidden.id, { title: 'Zephyr under a draft campaign' });
  });

  it('finds appeals by the words of their title, each a prefix, all of them', async () => {
    expect(await search('zephyr')).toEqual(['Zephyr bake sale', 'Zephyr swim for clean water']);
    expect(await search('Zeph CLEAN')).toEqual(['Zephyr swim for clean water']);
    expect(await search('zephyr marathon')).toEqual([]);
    // Newest first, as the lists are.
    const newestFirst = await bodyOf(await t.client().api.appeals.$get({ query: { q: 'zephyr' } }), 200);
    expect(newestFirst.map((a) => a.title)).toEqual(['Zephyr bake sale', 'Zephyr swim for clean water']);
    const secondPage = await t.client().api.appeals.$get({ query: { q: 'zephyr', limit: '1', page: '2' } });
    expect((await bodyOf(secondPage, 200)).map((a) => a.title)).toEqual(['Zephyr swim for clean water']);
    // Campaigns are searched on their own list.
    expect(await search('zephyr wells', 'campaigns')).toEqual(['Zephyr Wells Campaign']);
  });

  it("finds an appeal by its fundraiser's name, accents or not", async () => {
    expect(await search('Quennell')).toEqual(['Zephyr swim for clean water']);
    expect(await search('siobhan quen')).toEqual(['Zephyr swim for clean water']);
  });

  it('never shows what the public list would not: drafts, and appeals of a campaign not approved', async () => {
    expect(await search('draft')).toEqual([]);
    expect(await search('zephyr hidden', 'campaigns')).toEqual([]);
  });

  it('follows edits: a new title, a fundraiser renamed, an appeal taken down and approved again', async () => {
    const [appeal] = await t.db.select().from(campaigns).where(eq(campaigns.title, 'Zephyr bake sale'));
    await t.db.update(campaigns).set({ title: 'Zephyr cake stall' }).where(eq(campaigns.id, appeal.id));
    expect(await search('bake')).toEqual([]);
    expect(await search('cake stall')).toEqual(['Zephyr cake stall']);

    await t.db.update(users).set({ lastName: 'Quintrell' }).where(eq(users.id, fundraiserId));
    expect(await search('quennell')).toEqual([]);
    expect(await search('quintrell')).toEqual(['Zephyr swim for clean water']);

    await t.db.update(campaigns).set({ status: 'draft' }).where(eq(campaigns.id, appeal.id));
    expect(await search('cake')).toEqual([]);
    await t.db.update(campaigns).set({ status: 'approved' }).where(eq(campaigns.id, appeal.id));
    expect(await search('cake')).toEqual(['Zephyr cake stall']);
    // One index row per listed item, however often it was written.
    const [{ n }] = await t.db.all<{ n: number }>(
      sql`select count(*) as n from campaign_search where rowid = (select rowid from campaigns where id = ${appeal.id})`,
    );
    expect(Number(n)).toBe(1);
  });

  it('reads FTS5 syntax and punctuation as plain words, never as an error', async () => {
    for (const q of [
      '"',
      'zephyr"',
      'NEAR(zephyr',
      'zephyr OR',
      '*',
      'title:zephyr',
      "zephyr's",
      '-zephyr',
      '^zephyr',
    ]) {
      const res = await t.client().api.appeals.$get({ query: { q } });
      expect([q, res.status]).toEqual([q, 200]);
    }
    expect(await search('title:zephyr')).toEqual([]);
    expect(await search('zephyr-swim')).toEqual(['Zephyr swim for clean water']);
    // Nothing to look for: the whole list, as with no search.
    const all = await bodyOf(await t.client().api.appeals.$get({ query: { q: '!!!', limit: '50' } }), 200);
    const unsearched = await bodyOf(await t.client().api.appeals.$get({ query: { limit: '50' } }), 200);
    expect(all.map((a) => a.title)).toEqual(unsearched.map((a) => a.title));
    expect(all.length).toBe(2);
  });

  it('refuses a search past 100 characters, or with mine or a status but approved, with a clear 400', async () => {
    const res = await t.client().api.appeals.$get({ query: { q: 'z'.repeat(101) } });
    expect((await errorOf(res, 400)).message).toMatch(/q: a search is at most 100 characters/);
    const admin = await signedIn(t.db, 'admin');
    const withStatus = await t.client(admin.token).api.appeals.$get({ query: { q: 'zephyr', status: 'draft' } });
    expect((await errorOf(withStatus, 400)).message).toBe(
      'q: a search finds what the public lists show; leave out mine, and any status but approved',
    );
    const mine = await t.client(admin.token).api.appeals.$get({ query: { q: 'zephyr', mine: 'true' } });
    expect((await errorOf(mine, 400)).message).toMatch(/leave out mine/);
    // The office's list of approved appeals searches the same list, with its own can_edit.
    const approved = await t.client(admin.token).api.appeals.$get({ query: { q: 'zephyr swim', status: 'approved' } });
    expect((await bodyOf(approved, 200)).map((a) => [a.title, a.can_edit])).toEqual([
      ['Zephyr swim for clean water', true],
    ]);
  });

  it('a campaign taken down takes its appeals out of the search, and back when it returns', async () => {
    await t.db.update(campaigns).set({ status: 'draft' }).where(eq(campaigns.id, parentId));
    expect(await search('zephyr')).toEqual([]);
    expect(await search('zephyr wells', 'campaigns')).toEqual([]);
    await t.db.update(campaigns).set({ status: 'approved' }).where(eq(campaigns.id, parentId));
    expect(await search('zephyr swim')).toEqual(['Zephyr swim for clean water']);
    // An appeal moved under a campaign not on the site leaves the search with the move.
    const [swim] = await t.db.select().from(campaigns).where(eq(campaigns.title, 'Zephyr swim for clean water'));
    const [hidden] = await t.db.select().from(campaigns).where(eq(campaigns.title, 'Zephyr hidden campaign'));
    await t.db.update(campaigns).set({ campaignId: hidden.id }).where(eq(campaigns.id, swim.id));
    expect(await search('zephyr swim')).toEqual([]);
    await t.db.update(campaigns).set({ campaignId: parentId }).where(eq(campaigns.id, swim.id));
    expect(await search('zephyr swim')).toEqual(['Zephyr swim for clean water']);
  });

  it("a campaign's appeals can be searched too", async () => {
    const res = await t.client().api.campaigns[':id'].appeals.$get({ param: { id: parentId }, query: { q: 'swim' } });
    expect((await bodyOf(res, 200)).map((a) => a.title)).toEqual(['Zephyr swim for clean water']);
  });
});

describe(`a search reads its page, not the list (${engineName})`, () => {
  it("takes the page's rowids from the search index, then each row by rowid", async () => {
    const t = await setupTestApp();
    const parent = await createCampaign(t.db);
    for (const options of [
      { kind: 'appeal' },
      { kind: 'campaign' },
      { kind: 'appeal', parentId: parent.id },
    ] as const) {
      const query = searchCampaignsQuery(t.db, { ...options, search: 'zephyr', limit: 12 });
      const plan = await t.db.all<{ detail: string }>(sql`explain query plan ${query.getSQL()}`);
      const text = plan.map((row) => row.detail).join('\n');
      // The page's matches first, then each row by rowid; never the list's own index.
      const byRowid = text.indexOf('SEARCH campaigns USING INTEGER PRIMARY KEY (rowid=?)');
      expect(text.indexOf('SCAN matches')).toBeGreaterThanOrEqual(0);
      expect(byRowid).toBeGreaterThan(text.indexOf('SCAN matches'));
      expect(text).not.toMatch(/(SCAN|SEARCH) campaigns USING (COVERING )?INDEX campaigns_(status|children)_order_idx/);
    }
  });
});

describe(`a search page counts at most ${SEARCH_COUNT_CAP} matches (${engineName})`, () => {
  it('pages the first matches and says there are more', async () => {
    const t = await setupTestApp();
    const parent = await createCampaign(t.db, { title: 'Quokka campaign' });
    for (let i = 0; i < SEARCH_COUNT_CAP + 3; i++) await createAppeal(t.db, parent.id, { title: `Quokka walk ${i}` });
    const first = await loadDiscover(t.db, 'appeal', 1, undefined, 'quokka');
    expect(first).toMatchObject({ total: SEARCH_COUNT_CAP, more: true, pages: SEARCH_COUNT_CAP / LIST_PAGE_SIZE });
    expect(first.items.map((a) => a.title).slice(0, 2)).toEqual([
      `Quokka walk ${SEARCH_COUNT_CAP + 2}`,
      `Quokka walk ${SEARCH_COUNT_CAP + 1}`,
    ]);
    const ofCampaign = await loadDiscover(t.db, 'appeal', 1, parent.id, 'walk 1');
    // "walk" and a word starting "1": 1 and 10-19 in this campaign's list.
    expect(ofCampaign).toMatchObject({ total: 11, more: false, pages: 1 });
    expect(ofCampaign.items).toHaveLength(11);
    const few = await loadDiscover(t.db, 'appeal', 1, undefined, 'walk 22');
    expect(few).toMatchObject({ total: 1, more: false, pages: 1 });
    expect(few.items.map((a) => a.title)).toEqual(['Quokka walk 22']);
  });
});
