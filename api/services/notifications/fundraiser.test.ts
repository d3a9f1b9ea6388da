import { beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage, Mailer } from '../mail/mailer';
import { createAppeal, createCampaign, createDonation, createSession, createUser } from '../../../tests/factories';
import { bodyOf, engineName, setupTestApp, type TestApp } from '#test-app';
import { supportMessages } from '../../../db/schema';
import { flushFundraiserNotifications, notifyAfterGift, notifyAppealAfterGifts, recordAppealGift } from './fundraiser';

function fakeMailer() {
  const sent: MailMessage[] = [];
  const mailer: Mailer = {
    kind: 'outbox',
    stores: true,
    send: async (m) => (sent.push(m), { id: String(sent.length) }),
    transmit: async (_id, m) => void sent.push(m),
  };
  return { mailer, sent };
}

const T0 = Date.UTC(2026, 10, 20, 9, 0);
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

describe(`fundraiser notifications (${engineName})`, () => {
  let t: TestApp;
  let fundraiserToken: string;
  let campaignId: string;
  let appealId: string;
  let fundraiserId: string;
  let donorId: string;

  beforeAll(async () => {
    t = await setupTestApp();
    const fundraiser = await createUser(t.db, { firstName: 'Fay', email: 'fay@example.com' });
    fundraiserId = fundraiser.id;
    donorId = (await createUser(t.db)).id;
    campaignId = (await createCampaign(t.db)).id;
    appealId = (
      await createAppeal(t.db, campaignId, { title: '<b>Run & "swim"</b>', goal: 10_000, createdBy: fundraiser.id })
    ).id;
    fundraiserToken = await createSession(t.db, fundraiser.id);
  });

  const give = async (amount: number, minute: number, mailer: Mailer) => {
    const gift = await createDonation(t.db, {
      donorId,
      campaignId,
      appealId,
      amount,
      date: at(minute),
      source: 'card',
    });
    return notifyAfterGift(t.db, mailer, gift.id, { now: at(minute), origin: 'https://give.example' });
  };

  it('sends at most one gifts email an hour, the milestones once each, and flushes what waited', async () => {
    const { mailer, sent } = fakeMailer();
    expect(await give(1_000, 0, mailer)).toEqual(['gifts-1']);
    expect(sent[0].to).toBe('fay@example.com');
    expect(sent[0].subject).toBe('“<b>Run & "swim"</b>” received a new gift');
    expect(sent[0].text).toContain('received a new gift of £10.00');
    expect(sent[0].text).toContain('https://give.example/appeals/');
    expect(sent[0].html).toContain('&lt;b&gt;Run &amp; &quot;swim&quot;&lt;/b&gt;');
    expect(sent[0].html).not.toContain('<b>Run');

    expect(await give(1_000, 10, mailer)).toEqual([]);
    // £55 of £100: halfway, sent at once; the two gifts still wait for the hour.
    expect(await give(3_500, 20, mailer)).toEqual(['milestone-50']);
    expect(sent.at(-1)!.subject).toContain('is halfway to its goal');
    expect(await flushFundraiserNotifications(t.db, mailer, { now: at(30) })).toEqual({ appeals: 1, sent: 0 });
    expect(await flushFundraiserNotifications(t.db, mailer, { now: at(61) })).toEqual({ appeals: 1, sent: 1 });
    expect(sent.at(-1)!.text).toContain('2 new gifts totalling £45.00');
    expect(await flushFundraiserNotifications(t.db, mailer, { now: at(200) })).toEqual({ appeals: 0, sent: 0 });

    // £105: the goal, once; the gift waits (the last gifts email was at minute 61).
    expect(await give(5_000, 70, mailer)).toEqual(['milestone-100']);
    expect(await give(100, 80, mailer)).toEqual([]);
    expect(await give(100, 122, mailer)).toEqual(['gifts-3']);
    expect(sent).toHaveLength(5);
  });

  it('says who gave and what they wrote, as the appeal page shows them, so the fundraiser can thank them', async () => {
    const appeal = (
      await createAppeal(t.db, campaignId, { title: 'Thank-you test', goal: 1_000_000, createdBy: fundraiserId })
    ).id;
    const person = (firstName: string, lastName: string) => createUser(t.db, { firstName, lastName });
    const [ada, bob, cy, di] = await Promise.all([
      person('Ada', 'Lovelace'),
      person('Bob', 'Stone'),
      person('Cy', 'Young'),
      person('Di', 'Lane'),
    ]);
    const { mailer, sent } = fakeMailer();
    const gift = async (
      donor: string,
      amount: number,
      minute: number,
      choices?: { message?: string; anonymous?: boolean; hideAmount?: boolean; hidden?: boolean },
    ) => {
      const row = await createDonation(t.db, {
        donorId: donor,
        campaignId,
        appealId: appeal,
        amount,
        date: at(1_000 + minute),
        source: 'card',
        ownCheckout: true,
      });
      if (choices)
        await t.db.insert(supportMessages).values({
          donationId: row.id,
          campaignId,
          appealId: appeal,
          message: choices.message ?? null,
          anonymous: choices.anonymous ?? false,
          hideAmount: choices.hideAmount ?? false,
          hiddenAt: choices.hidden ? at(1_000 + minute) : null,
        });
      return notifyAfterGift(t.db, mailer, row.id, { now: at(1_000 + minute), origin: 'https://give.example' });
    };

    expect(await gift(ada.id, 2_000, 0, { message: 'Go <Fay> & win!' })).toEqual(['gifts-1']);
    expect(sent[0].text).toContain('From:\n- Ada L. (£20.00): “Go <Fay> & win!”');
    // Everyone who has given, on the appeal's Supporters screen (decision 075).
    expect(sent[0].text).toContain(`\n\nSee everyone who has given: https://give.example/dashboard/supporters/`);
    expect(sent[0].html).toContain('>See everyone who has given</a>');
    expect(sent[0].html).toContain('<li>Ada L. (£20.00): “Go &lt;Fay&gt; &amp; win!”</li>');

    // Bob chose "Give anonymously" on his first gift: his monthly renewal (no message row) stays anonymous.
    await gift(bob.id, 1_500, 5, { anonymous: true, message: 'From a friend' });
    await gift(bob.id, 1_500, 6);
    await gift(cy.id, 9_900, 7, { hideAmount: true });
    await gift(di.id, 500, 8, { message: 'spam link', hidden: true });
    expect(await flushFundraiserNotifications(t.db, mailer, { now: at(1_061) })).toEqual({ appeals: 1, sent: 1 });
    const batch = sent.at(-1)!;
    expect(batch.text).toContain('4 new gifts totalling £134.00');
    expect(batch.text).toContain(
      ['From:', '- Anonymous (£15.00): “From a friend”', '- Anonymous (£15.00)', '- Cy Y.', '- Di L. (£5.00)'].join(
        '\n',
      ),
    );
    for (const secret of ['Bob', 'Stone', '£99.00', 'spam link']) expect(batch.text + batch.html).not.toContain(secret);
  });

  it('names at most ten gifts and counts the rest', async () => {
    const appeal = (
      await createAppeal(t.db, campaignId, { title: 'Busy appeal', goal: 1_000_000, createdBy: fundraiserId })
    ).id;
    const { mailer, sent } = fakeMailer();
    for (let i = 0; i < 12; i++) {
      const row = await createDonation(t.db, {
        donorId,
        campaignId,
        appealId: appeal,
        amount: 100,
        date: at(2_000 + i),
        source: 'card',
      });
      await notifyAfterGift(t.db, mailer, row.id, { now: at(2_000 + i) });
    }
    await flushFundraiserNotifications(t.db, mailer, { now: at(2_100) });
    expect(sent.at(-1)!.text).toContain('11 new gifts totalling £11.00');
    expect(sent.at(-1)!.text.match(/^- /gm)).toHaveLength(11);
    expect(sent.at(-1)!.text).toContain('- and 1 more');
  });

  it('after a worker’s answer, a second’s gifts share one look per appeal: the first at once, the rest at the second’s end', async () => {
    const fundraisers = [
      await createUser(t.db, { email: 'ann@example.com' }),
      await createUser(t.db, { email: 'bo@example.com' }),
    ];
    const [a, b] = await Promise.all(
      fundraisers.map((f) => createAppeal(t.db, campaignId, { goal: 1_000_000, createdBy: f.id })),
    );
    const pendingGift = async (appealId: string) => {
      const gift = await createDonation(t.db, {
        donorId,
        campaignId,
        appealId,
        amount: 500,
        date: at(900),
        source: 'card',
      });
      await recordAppealGift(t.db, gift.id);
    };
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    const waits: number[] = [];
    const options = {
      now: at(900),
      origin: 'https://give.example',
      gather: true,
      wait: (ms: number) => (waits.push(ms), gate),
    };
    const { mailer, sent } = fakeMailer();
    await pendingGift(a.id);
    await notifyAppealAfterGifts(t.db, mailer, a.id, options);
    expect(sent.map((m) => [m.to, m.text.match(/received a new gift of £5\.00/) !== null])).toEqual([
      ['ann@example.com', true],
    ]);

    // Three more gifts in the same second: they wait for its end, then each appeal is looked at once.
    await Promise.all([pendingGift(a.id), pendingGift(a.id), pendingGift(b.id)]);
    const later = Promise.all([
      notifyAppealAfterGifts(t.db, mailer, a.id, options),
      notifyAppealAfterGifts(t.db, mailer, a.id, options),
      notifyAppealAfterGifts(t.db, mailer, b.id, options),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([1000]);
    open();
    await later;
    // B's fundraiser hears at once; A's two gifts wait for A's hour, as without gathering.
    expect(sent.map((m) => m.to)).toEqual(['ann@example.com', 'bo@example.com']);
    expect(await flushFundraiserNotifications(t.db, mailer, { now: at(961) })).toMatchObject({ sent: 1 });
    expect(sent.at(-1)).toMatchObject({
      to: 'ann@example.com',
      text: expect.stringContaining('2 new gifts totalling £10.00'),
    });
  });

  it('respects the switches in My Info', async () => {
    const switches = t.client(fundraiserToken).api.users.me.notifications;
    const off = await switches.$put({ json: { appeal_gifts: false } });
    expect(await bodyOf(off, 200)).toEqual({ appeal_gifts: false, appeal_milestones: true });
    const { mailer, sent } = fakeMailer();
    expect(await give(100, 400, mailer)).toEqual([]);
    expect(await flushFundraiserNotifications(t.db, mailer, { now: at(600) })).toEqual({ appeals: 0, sent: 0 });
    expect(sent).toHaveLength(0);
    const read = await switches.$get();
    expect(await read.json()).toEqual({ appeal_gifts: false, appeal_milestones: true });
  });

  it('validates the switches and needs a signed-in user', async () => {
    expect((await t.client().api.users.me.notifications.$get()).status).toBe(401);
    // Raw: a switch sent as text and a field the schema does not know are what this checks.
    const bad = await t.request('/api/users/me/notifications', {
      method: 'PUT',
      token: fundraiserToken,
      json: { appeal_gifts: 'yes' },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ statusCode: 400, message: expect.stringContaining('appeal_gifts') });
    const extra = await t.request('/api/users/me/notifications', {
      method: 'PUT',
      token: fundraiserToken,
      json: { user_id: fundraiserId },
    });
    expect(extra.status).toBe(400);
  });
});
