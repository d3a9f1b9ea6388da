import type { InferRequestType } from 'hono/client';
import { api, type ApiError, client, type Data, valueOrError } from '../../lib/api';
import { formatPenceShort, parsePounds, percentRaised } from '../../lib/format';
import type { DEMO_ACCOUNT_FAILS, DEMO_ACCOUNT_SUCCEEDS } from '../../../domain';
import { formatUkDate } from '../../../domain/dates';
import type { GiftAidValue } from './GiftAidFields';

export type MonthlyPrice = Data<typeof client.api.stripe.subscriptions.$get>[number];

export type PaymentSession = Data<typeof client.api.stripe.client_secret.$post>;

/** The body of POST /api/stripe/client_secret, from the API contract. */
export type StartDonation = InferRequestType<typeof client.api.stripe.client_secret.$post>['json'];

export const fetchPrices = async () =>
  valueOrError(await api((o) => client.api.stripe.subscriptions.$get(undefined, o), { token: null }));
export const startDonation = async (body: StartDonation) =>
  valueOrError(await api((o) => client.api.stripe.client_secret.$post({ json: body }, o)));
export const confirmDemo = async (clientSecret: string, card: 'success' | 'decline') =>
  valueOrError(
    await api((o) => client.api.stripe.demo.confirm.$post({ json: { clientSecret, card } }, o), { token: null }),
  );

/** Stripe's test accounts: the only ones the demo Direct Debit takes. */
export type DemoAccount = typeof DEMO_ACCOUNT_SUCCEEDS | typeof DEMO_ACCOUNT_FAILS;

export const confirmDemoDirectDebit = async (
  clientSecret: string,
  bacs_debit: {
    sort_code: string;
    account_number: DemoAccount;
    billing_details: {
      name: string;
      address: { line1: string; line2: string | null; city: string; postal_code: string };
    };
  },
) =>
  valueOrError(
    await api((o) => client.api.stripe.demo.confirm.$post({ json: { clientSecret, bacs_debit } }, o), { token: null }),
  );

export type { ApiError };

/** "12.5" → 1250 pence; null for anything that is not a plain amount with at most 2 decimals. */
export const poundsToPence = parsePounds;

/** The URL Stripe returns the donor to after a redirect-based payment method. */
export function returnUrl(): string {
  const url = new URL(window.location.href);
  url.searchParams.set('donation', 'complete');
  return url.toString();
}

export const PAYMENT_NOT_COMPLETED = 'Your payment could not be completed, so no donation was taken. Please try again.';

/**
 * On return from a redirect: 'success' (thank-you) when Stripe says succeeded or processing, or
 * for our own flag without a redirect_status; 'failed' for any other redirect_status; null when
 * the page was not opened as a return from a payment.
 */
export function paymentReturn(
  search = typeof window === 'undefined' ? '' : window.location.search,
): 'success' | 'failed' | null {
  const params = new URLSearchParams(search);
  const flag = params.get('donation');
  if (flag !== 'success' && flag !== 'complete') return null;
  const status = params.get('redirect_status');
  return status === null || status === 'succeeded' || status === 'processing' ? 'success' : 'failed';
}

type Summary = { goal: number; summary: { total_donations: number; donation_count: number; gift_aid?: number } };

/**
 * Puts the current raised total of a campaign or appeal into the page (elements marked
 * data-total-*="<id>" by CampaignDetail.astro). The page and the API's public reads may come from
 * the edge cache; this call asks past it (`fresh`), so a donor's thank-you shows the total with
 * their gift in it. A card
 * gift is recorded by Stripe's webhook, which may land a moment later: it asks again a few times
 * until the count moves.
 */
export async function showFreshTotal(kind: 'campaign' | 'appeal', id: string, tries = [0, 1500, 4000]): Promise<void> {
  const countEl = document.querySelector<HTMLElement>(`[data-total-count="${CSS.escape(id)}"]`);
  const shownCount = Number(countEl?.dataset.count ?? Number.NaN);
  for (const wait of tries) {
    if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
    const result = await api(
      (o) =>
        kind === 'appeal'
          ? client.api.appeals[':id'].$get({ param: { id } }, o)
          : client.api.campaigns[':id'].$get({ param: { id } }, o),
      { token: null, fresh: true },
    );
    if (!result.ok) return;
    const item: Summary = result.data;
    applyTotal(id, item);
    if (!(item.summary.donation_count <= shownCount)) return;
  }
}

/**
 * The signed-in donor's newest Gift Aid declaration in force, as the box's fields: ticking Gift Aid
 * again shows the details HMRC already has (their new gift's declaration then follows that one), so
 * a returning donor neither retypes them nor leaves a half-typed second address on record.
 */
export async function myDeclarationDetails(): Promise<GiftAidValue | null> {
  const result = await api((o) => client.api['gift-aid'].me.$get(undefined, o));
  if (!result.ok) return null;
  const current = result.data.declarations.find((d) => d.effective);
  if (!current) return null;
  return {
    title: current.title ?? '',
    first_name: current.first_name,
    last_name: current.last_name,
    house: current.house,
    address: current.address ?? '',
    postcode: current.postcode,
  };
}

/**
 * Puts the appeal's latest messages of support into its page (SupportMessages.astro's markup) once
 * the donor's own is among them: the page may be a cached copy from before the gift. Asks past the
 * edge cache, a few times while the gift's webhook lands. Text goes in as text, never as HTML.
 */
export async function showFreshMessages(appealId: string, mine: string, tries = [0, 1500, 4000]): Promise<void> {
  const section = document.querySelector<HTMLElement>('.support-messages');
  if (!section || !mine.trim()) return;
  for (const wait of tries) {
    if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
    const result = await api((o) => client.api.appeals[':id'].messages.$get({ param: { id: appealId } }, o), {
      token: null,
      fresh: true,
    });
    if (!result.ok) return;
    if (!result.data.some((m) => m.message === mine.trim())) continue;
    const list = document.createElement('ul');
    for (const m of result.data) {
      const item = document.createElement('li');
      const text = document.createElement('p');
      text.className = 'support-message-text';
      text.textContent = m.message;
      const meta = document.createElement('p');
      meta.className = 'support-message-meta';
      const name = document.createElement('span');
      name.className = 'donor-name';
      name.textContent = m.name;
      meta.appendChild(name);
      if (m.amount !== null) {
        const total = document.createElement('strong');
        total.className = 'donor-total';
        total.textContent = formatPenceShort(m.amount);
        meta.appendChild(total);
      }
      const time = document.createElement('time');
      time.dateTime = m.date;
      time.textContent = formatUkDate(new Date(m.date));
      meta.appendChild(time);
      item.appendChild(text);
      item.appendChild(meta);
      list.appendChild(item);
    }
    for (const old of section.querySelectorAll(':scope > ul, :scope > p')) old.remove();
    section.appendChild(list);
    return;
  }
}

/** The "+ £x Gift Aid" beside a raised total (found by its place, so the document carries no extra marker). */
function showGiftAid(raisedEl: HTMLElement, pence: number) {
  const line = raisedEl.parentElement;
  if (!line || pence <= 0) return;
  let plus = line.querySelector<HTMLElement>('.gift-aid-plus');
  if (!plus) {
    plus = document.createElement('span');
    plus.className = 'gift-aid-plus';
    line.appendChild(plus);
  }
  plus.textContent = ` + ${formatPenceShort(pence)} Gift Aid`;
}

function applyTotal(id: string, item: Summary) {
  const raised = item.summary.total_donations;
  const count = item.summary.donation_count;
  const percent = percentRaised(raised, item.goal);
  const sel = (name: string) => document.querySelectorAll<HTMLElement>(`[data-total-${name}="${CSS.escape(id)}"]`);
  sel('raised').forEach((el) => {
    el.textContent = formatPenceShort(raised);
    showGiftAid(el, item.summary.gift_aid ?? 0);
  });
  sel('percent').forEach((el) => (el.textContent = `${percent}% of goal`));
  sel('count').forEach((el) => {
    el.textContent = `${count} ${count === 1 ? 'donation' : 'donations'}`;
    el.dataset.count = String(count);
  });
  sel('bar').forEach((el) => {
    const bar = Math.min(100, Number(percent));
    el.style.width = `${bar}%`;
    el.parentElement?.setAttribute('aria-valuenow', String(bar));
    el.parentElement?.setAttribute('aria-valuetext', `${percent}%`);
  });
}
