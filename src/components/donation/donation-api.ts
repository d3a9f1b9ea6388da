import { api, type ApiError, client, type Data, valueOrError } from '../../lib/api';
import { parsePounds } from '../../lib/format';

export type MonthlyPrice = Data<typeof client.api.stripe.subscriptions.$get>[number];

export type PaymentSession = Data<typeof client.api.stripe.client_secret.$post>;

export type StartDonation = {
  email?: string;
  amount?: number;
  price?: string;
  campaign_id: string;
  appeal_id: string | null;
  giftAid: boolean;
  gift_aid?: { title: string; first_name: string; last_name: string; house: string; address: string; postcode: string; declaration: string };
};

export const fetchPrices = async () => valueOrError(await api((o) => client.api.stripe.subscriptions.$get(undefined, o), { token: null }));
export const startDonation = async (body: StartDonation) => valueOrError(await api((o) => client.api.stripe.client_secret.$post({ json: body }, o)));
export const confirmDemo = async (clientSecret: string, card: 'success' | 'decline') =>
  valueOrError(await api((o) => client.api.stripe.demo.confirm.$post({ json: { clientSecret, card } }, o), { token: null }));

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
export function paymentReturn(search = typeof window === 'undefined' ? '' : window.location.search): 'success' | 'failed' | null {
  const params = new URLSearchParams(search);
  const flag = params.get('donation');
  if (flag !== 'success' && flag !== 'complete') return null;
  const status = params.get('redirect_status');
  return status === null || status === 'succeeded' || status === 'processing' ? 'success' : 'failed';
}
