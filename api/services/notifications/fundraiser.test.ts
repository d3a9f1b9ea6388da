import { beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage, Mailer } from '../mail/mailer';
import { createAppeal, createCampaign, createDonation, createSession, createUser } from '../../../tests/factories';
import { engineName, setupTestApp, type TestApp } from '../../../tests/setup/test-app';
import { flushFundraiserNotifications, notifyAfterGift } from './fundraiser';

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

  it('respects the switches in My Info', async () => {
    const off = await t.request('/api/users/me/notifications', {
      method: 'PUT',
      token: fundraiserToken,
      json: { appeal_gifts: false },
    });
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ appeal_gifts: false, appeal_milestones: true });
    const { mailer, sent } = fakeMailer();
    expect(await give(100, 400, mailer)).toEqual([]);
    expect(await flushFundraiserNotifications(t.db, mailer, { now: at(600) })).toEqual({ appeals: 0, sent: 0 });
    expect(sent).toHaveLength(0);
    const read = await t.request('/api/users/me/notifications', { token: fundraiserToken });
    expect(await read.json()).toEqual({ appeal_gifts: false, appeal_milestones: true });
  });

  it('validates the switches and needs a signed-in user', async () => {
    expect((await t.request('/api/users/me/notifications')).status).toBe(401);
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
