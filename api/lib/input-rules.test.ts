import { beforeAll, describe, expect, it, vi } from 'vitest';
import { checkGiftAidDetails, isEmail } from '../../domain';
import { createCampaign, signedIn } from '../../tests/factories';
import { engineName, setupTestApp, type TestApp } from '#test-app';

describe('the one email rule', () => {
  it('refuses markup and quoting characters, accepts ordinary addresses', () => {
    for (const bad of [
      '<script>@x.com',
      'a<b@x.com',
      'ann@x',
      'ann@@x.com',
      'ann @x.com',
      '"ann"@x.com',
      'ann@x..com',
      'ann@-x.com',
      'ann@x.c',
    ]) {
      expect(isEmail(bad), bad).toBe(false);
    }
    for (const good of ['ann@example.org', 'ann.lee+gifts@mail.example.co.uk', "o'neil@example.ie", 'zoë@exämple.de']) {
      expect(isEmail(good), good).toBe(true);
    }
  });
});

describe('Gift Aid names', () => {
  it('says what is wrong with a one-letter last name (HMRC takes an initial only for the first name)', () => {
    const result = checkGiftAidDetails({ first_name: 'A', last_name: 'B', house: '1', postcode: 'LS1 4AP' });
    expect(result).toEqual({
      ok: false,
      problems: [{ field: 'last_name', message: 'last_name: HMRC needs your whole last name, not an initial' }],
    });
    expect(checkGiftAidDetails({ first_name: '<b>', last_name: 'Lee', house: '1', postcode: 'LS1 4AP' })).toMatchObject(
      { ok: false, problems: [{ field: 'first_name' }] },
    );
  });
});

describe(`names and emails in every API field (${engineName})`, () => {
  let t: TestApp;
  let adminToken: string;
  let campaignId: string;
  beforeAll(async () => {
    t = await setupTestApp();
    adminToken = (await signedIn(t.db, 'admin')).token;
    campaignId = (await createCampaign(t.db)).id;
    vi.spyOn(console, 'log').mockImplementation(() => {});
  });
  const message = async (res: Response) => ((await res.json()) as { message: string }).message;
  /** An admin adds a donor (POST /api/users). */
  const addDonor = (json: object) => t.request('/api/users', { method: 'POST', token: adminToken, json });

  it('refuses <script>@x.com as an email at sign-in, in the donation box and for a new donor', async () => {
    const login = await t.request('/api/auth/login', { method: 'POST', json: { email: '<script>@x.com' } });
    expect(login.status).toBe(400);
    expect(await message(login)).toBe('email: Enter a valid email address, like name@example.org');
    const give = await t.request('/api/stripe/client_secret', {
      method: 'POST',
      json: { email: '<script>@x.com', amount: 500, campaign_id: campaignId },
    });
    expect(give.status).toBe(400);
    expect(await message(give)).toMatch(/^email: enter a valid email address/);
    const donor = await addDonor({ email: '<script>@x.com', first_name: 'Ann', last_name: 'Lee' });
    expect(donor.status).toBe(400);
    expect(await message(donor)).toBe('email: Enter a valid email address, like name@example.org');
  });

  it('refuses names with markup for users and at sign-up, with a clear message', async () => {
    const donor = await addDonor({ email: 'ann.markup@example.org', first_name: '<img src=x>', last_name: 'Lee' });
    expect(donor.status).toBe(400);
    expect(await message(donor)).toBe('first_name: a name cannot contain < or > (or control characters)');
    const me = await signedIn(t.db, 'donor');
    const rename = await t.request('/api/users/me', {
      method: 'PUT',
      token: me.token,
      json: { last_name: 'Lee<script>' },
    });
    expect(rename.status).toBe(400);
    expect(await message(rename)).toBe('last_name: a name cannot contain < or > (or control characters)');
    const signUp = await t.request('/api/auth/login', {
      method: 'POST',
      json: { email: 'new.person@example.org', code: '123456', first_name: 'Eve', last_name: '<b>x</b>' },
    });
    expect(signUp.status).toBe(400);
    expect(await message(signUp)).toBe('last_name: a name cannot contain < or > (or control characters)');
  });

  it('names the field once in API messages', async () => {
    const res = await t.request('/api/stripe/client_secret', {
      method: 'POST',
      json: { email: 'ann@example.org', amount: 5, campaign_id: campaignId },
    });
    expect(res.status).toBe(400);
    expect(await message(res)).toBe('amount: the minimum donation is £1 (100 pence)');
  });
});
