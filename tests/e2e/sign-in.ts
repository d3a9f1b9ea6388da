import { type APIRequestContext, expect, type Page } from '@playwright/test';

/**
 * One sign-in per account for the whole run (issue 13): the code is requested, read from the dev
 * outbox and exchanged for a session token once, then reused by every spec. Code emails are rate
 * limited per address, and each round trip costs seconds, so specs no longer sign in on their own.
 */
export type Session = { token: string; user: { _id: string; name: { first_name: string; last_name: string }; org_ids: string[]; type: string } };

const sessions = new Map<string, Promise<Session>>();

async function signInOnce(request: APIRequestContext, email: string): Promise<Session> {
  expect((await request.post('/api/auth/login', { data: { email } })).ok()).toBe(true);
  let code = '';
  await expect(async () => {
    const res = await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`);
    const [mail] = (await res.json()) as { text: string }[];
    code = /code is: (\d{6})/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
  }).toPass({ timeout: 5_000 });
  const res = await request.post('/api/auth/login', { data: { email, code } });
  expect(res.ok()).toBe(true);
  return (await res.json()) as Session;
}

/** The session of `email`, signing in on first use (the API, as the login dialog does). */
export function signIn(request: APIRequestContext, email: string): Promise<Session> {
  let session = sessions.get(email);
  if (!session) {
    session = signInOnce(request, email);
    sessions.set(email, session);
    // A failed sign-in is not cached: the next test tries again.
    session.catch(() => sessions.delete(email));
  }
  return session;
}

/** Stores the token where the site keeps it, before the page's scripts run. */
export async function useToken(page: Page, token: string) {
  await page.addInitScript((t) => localStorage.setItem('uk_nfp_token', t), token);
}
