import { api, type ApiError } from '../../lib/api-client';

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
};

export const fetchPrices = () => api<MonthlyPrice[]>('/api/stripe/subscriptions', { token: null });
export const startDonation = (body: StartDonation) => api<PaymentSession>('/api/stripe/client_secret', { json: body });
export const confirmDemo = (clientSecret: string, card: 'success' | 'decline') =>
  api<{ status: string }>('/api/stripe/demo/confirm', { json: { clientSecret, card }, token: null });

export type { ApiError };

/** "12.5" → 1250 pence; null for anything that is not a positive amount with at most 2 decimals. */
export function poundsToPence(value: string): number | null {
  const trimmed = value.trim().replace(/^£/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) return null;
  const [whole, fraction = ''] = trimmed.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** The URL Stripe returns the donor to after a redirect-based payment method. */
export function returnUrl(): string {
  const url = new URL(window.location.href);
  url.searchParams.set('donation', 'complete');
  return url.toString();
}

/** On return from a redirect (or a shared link) the box shows the thank-you. */
export function returnedAfterPayment(): boolean {
  if (typeof window === 'undefined') return false;
  const params = new URLSearchParams(window.location.search);
  const flag = params.get('donation');
  return (flag === 'success' || flag === 'complete') && params.get('redirect_status') !== 'failed';
}
