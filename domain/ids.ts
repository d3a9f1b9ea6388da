/**
 * Share links use a short form of the UUID: its 128 bits in base62 (22 characters).
 * The encoding is reversible, so routes accept either form without a second column.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SHORT_LENGTH = 22;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SHORT_PATTERN = /^[0-9A-Za-z]{22}$/;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

export function toShortId(uuid: string): string {
  let n = BigInt('0x' + uuid.replace(/-/g, ''));
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(SHORT_LENGTH, '0');
}

export function fromShortId(short: string): string | null {
  if (!SHORT_PATTERN.test(short)) return null;
  let n = 0n;
  for (const ch of short) n = n * 62n + BigInt(ALPHABET.indexOf(ch));
  if (n >= 1n << 128n) return null;
  const hex = n.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A UUID from either form, lower-cased; null when the value is neither. */
export function parseId(value: string): string | null {
  if (isUuid(value)) return value.toLowerCase();
  return fromShortId(value);
}
