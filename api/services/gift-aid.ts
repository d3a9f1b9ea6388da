/**
 * Gift Aid wording and rules shared by the API and the donation box island. Keep this module free
 * of server imports: the browser bundle includes it.
 */

/** HMRC model declaration; stored verbatim with every declaration a donor accepts. */
export const GIFT_AID_DECLARATION =
  'I want to Gift Aid my donation and any donations I make in the future or have made in the past 4 years to ' +
  'UK NFP. I am a UK taxpayer and understand that if I pay less Income Tax and/or Capital Gains Tax than the ' +
  'amount of Gift Aid claimed on all my donations in that tax year it is my responsibility to pay any difference.';

export const GIFT_AID_BOOST_TEXT = 'Boost your donation by 25p of Gift Aid for every £1 you donate';

/**
 * UK postcodes (including BFPO-free GIR 0AA): outward code, optional space, inward code.
 * Covers the formats A9 9AA, A99 9AA, AA9 9AA, AA99 9AA, A9A 9AA and AA9A 9AA.
 */
const UK_POSTCODE = /^(GIR ?0AA|[A-PR-UWYZ](?:[0-9]{1,2}|[A-HK-Y][0-9]{1,2}|[0-9][A-HJKPSTUW]|[A-HK-Y][0-9][ABEHMNPRVWXY]) ?[0-9][ABD-HJLNP-UW-Z]{2})$/;

/** "sw1a1aa" → "SW1A 1AA"; null when it is not a UK postcode. */
export function normalizeUkPostcode(value: string): string | null {
  const compact = value.trim().toUpperCase().replace(/\s+/g, '');
  if (!UK_POSTCODE.test(compact)) return null;
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
}

export function isUkPostcode(value: string): boolean {
  return normalizeUkPostcode(value) !== null;
}

/** The simple address pattern the donation box uses for its border colour (spec section 5). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export const MIN_DONATION_PENCE = 100;
export const MAX_DONATION_PENCE = 2_500_000;
