import { api, type ApiError } from '../../lib/api-client';
import { parsePounds } from '../../lib/format';

export type MonthlyPrice = { id: string; unit_amount: number; currency: string; recurring: { interval: string } };

export type PaymentSession = {
  clientSecret: string;
  mode: 'stripe' | 'demo';
  publishableKey: string | null;
  type: 'once' | 'monthly';
  amount: number;
};

export type StartDonation = {
  email?: string;
  amount?: number;
  price?: string;
  campaign_id: string;
  appeal_id: string | null;
  giftAid: boolean;
  gift_aid?: { full_name: string; home_address: string; postcode: string; declaration: string };
  message?: string;
  anonymous?: boolean;
  hide_amount?: boolean;
};

export const fetchPrices = () => api<MonthlyPrice[]>('/api/stripe/subscriptions', { token: null });
export const startDonation = (body: StartDonation) => api<PaymentSession>('/api/stripe/client_secret', { json: body });
export const confirmDemo = (clientSecret: string, card: 'success' | 'decline') =>
  api<{ status: string }>('/api/stripe/demo/confirm', { json: { clientSecret, card }, token: null });

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
