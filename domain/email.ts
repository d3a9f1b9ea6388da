/**
 * The one email rule, used by the login dialog, the donation box and every API route that takes an
 * address: something@domain.tld, where the part before @ has no spaces, markup or quoting
 * characters (`<script>@x.com` is not an address) and the domain is dot-separated labels of
 * letters, digits and inner hyphens ending in a name of at least two letters.
 */
export const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}$/u;
export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_INVALID = 'Enter a valid email address, like name@example.org';

export function isEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);
}

/** Addresses are compared and stored trimmed and lower-cased. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** Donors entered from paper with no address get a unique one that never delivers (`.invalid`, RFC 2606). */
export const NO_EMAIL_DOMAIN = 'donors.invalid';
export const noEmailAddress = (donorId: string) => `offline-${donorId}@${NO_EMAIL_DOMAIN}`;

/** The collections donor's stand-in address (decision 081): its own prefix, so Top Donors can leave it out by index. */
export const COLLECTIONS_ADDRESS_PREFIX = 'collections-';
export const collectionsAddress = (donorId: string) => `${COLLECTIONS_ADDRESS_PREFIX}${donorId}@${NO_EMAIL_DOMAIN}`;

/**
 * A stand-in address the office made for a donor with no email (a paper donor, the collections
 * donor): never mailed, never signed in with, never typed at a checkout (decision 081).
 */
export const isStandInAddress = (email: string) => email.trim().toLowerCase().endsWith(`@${NO_EMAIL_DOMAIN}`);

/** The address as staff read it: a no-email donor's stand-in is not shown as if it were theirs. */
export function shownEmail(email: string | null | undefined): string {
  return !email || email.endsWith(`@${NO_EMAIL_DOMAIN}`) ? 'no email' : email;
}
