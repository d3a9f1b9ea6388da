/** Money is integer pence everywhere; these helpers are the only place it becomes pounds. */

const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
const gbpWhole = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', maximumFractionDigits: 0 });

/** Gift Aid adds 25p for every £1 a UK taxpayer gives (spec section 9). */
export const GIFT_AID_RATE = 0.25;

/** Pence from the API to "£1,234.56" (spec section 9: divide by 100). */
export function formatPence(pence: number): string {
  return gbp.format(pence / 100);
}

/** Pence to whole pounds when there are no pennies: "£20,000", else "£12.50". */
export function formatPenceShort(pence: number): string {
  return pence % 100 === 0 ? gbpWhole.format(pence / 100) : gbp.format(pence / 100);
}

/** Pence to a plain decimal with two places and no symbol or separators: 123456 → "1234.56" (CSV, HMRC). */
export function penceToDecimal(pence: number): string {
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(pence));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Pence as a pounds field shows it for editing, whole pounds without pence: 500000 → "5000", 1250 → "12.50". */
export function penceToPoundsField(pence: number): string {
  return pence % 100 === 0 ? String(Math.trunc(pence / 100)) : penceToDecimal(pence);
}

/** Gift Aid on a net amount, in whole pence rounded down (HMRC never pays a fraction of a penny). */
export function giftAidOn(pence: number): number {
  return Math.floor(Math.max(0, pence) / 4);
}

/** Percent raised with two decimals (spec section 9); 0 when the goal is 0. */
export function percentRaised(raisedPence: number, goalPence: number): string {
  if (!goalPence) return '0.00';
  return ((raisedPence / goalPence) * 100).toFixed(2);
}

/**
 * Pounds typed by a person ("£1,234.5") to integer pence, with string arithmetic so no float ever
 * touches money; null when it is not a plain amount with at most two decimals.
 */
export function parsePounds(text: string): number | null {
  const clean = text.trim().replace(/^£/, '').replace(/[,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  const [whole, fraction = ''] = clean.split('.');
  const pence = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(pence) ? pence : null;
}
