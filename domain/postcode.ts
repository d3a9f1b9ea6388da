/**
 * The one UK postcode rule: outward code, optional space, inward code (A9 9AA, A99 9AA, AA9 9AA,
 * AA99 9AA, A9A 9AA, AA9A 9AA and GIR 0AA). HMRC's schedules want capitals with one space.
 */
const UK_POSTCODE =
  /^(GIR ?0AA|[A-PR-UWYZ](?:[0-9]{1,2}|[A-HK-Y][0-9]{1,2}|[0-9][A-HJKPSTUW]|[A-HK-Y][0-9][ABEHMNPRVWXY]) ?[0-9][ABD-HJLNP-UW-Z]{2})$/;

/** "sw1a1aa" → "SW1A 1AA"; null when it is not a UK postcode. */
export function normalizeUkPostcode(value: string): string | null {
  const compact = value.trim().toUpperCase().replace(/\s+/g, '');
  if (!UK_POSTCODE.test(compact)) return null;
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
}

export function isUkPostcode(value: string): boolean {
  return normalizeUkPostcode(value) !== null;
}
