/**
 * The one phone rule, for donors (docs/decisions/009: a departure from the seed's US "(xxx) xxx-xxxx").
 * A UK charity's donors write UK numbers: 11 digits from 0 ("07911 123456", "020 7946 0958") or the
 * same with +44 / 0044; a donor abroad writes their own country's + code. libphonenumber-js (its
 * "min" metadata, about 20 KB gzip, in the dashboard's bundle only) decides validity, so a
 * digit too many or too few is caught when typed, not when a call is made.
 * Stored as E.164 ("+447911123456"); shown in the UK's national form ("07911 123456").
 */
import { AsYouType, parsePhoneNumberFromString } from 'libphonenumber-js/min';

const HOME_COUNTRY = 'GB';
/** E.164 allows at most 15 digits after the +. */
export const PHONE_MAX_DIGITS = 15;
export const PHONE_HINT = 'A UK number (11 digits from 0, or +44); abroad, start with + and the country code';
export const PHONE_INVALID = 'Enter a UK phone number (11 digits from 0, or +44), or + and a country code';

/** "07911 123456", "+44 7911 123456", "0044 7911 123456" → "+447911123456"; null when it is no valid number. */
export function normalizePhone(value: string): string | null {
  const phone = parsePhoneNumberFromString(value.trim(), HOME_COUNTRY);
  return phone?.isValid() ? phone.number : null;
}

/**
 * How a stored number is shown: UK (and Crown Dependency) numbers nationally, others internationally.
 * Rows written before this rule (ten bare digits) are shown as stored rather than guessed at.
 */
export function formatPhone(stored: string | null | undefined): string {
  if (!stored) return '';
  const phone = parsePhoneNumberFromString(stored, HOME_COUNTRY);
  if (!phone?.isValid()) return stored;
  return phone.countryCallingCode === '44' ? phone.formatNational() : phone.formatInternational();
}

/** What the phone field shows while someone types: digits (and a leading +) grouped as the country writes them. */
export function formatPhoneAsTyped(value: string): string {
  const plus = value.trimStart().startsWith('+');
  const digits = value.replace(/\D/g, '').slice(0, PHONE_MAX_DIGITS);
  if (!digits) return plus ? '+' : '';
  return new AsYouType(HOME_COUNTRY).input(`${plus ? '+' : ''}${digits}`);
}

/** The digits (and a leading +) of what was typed: equal for "07911 123456" and "07911123456". */
export function phoneKeystrokes(value: string): string {
  return (value.trimStart().startsWith('+') ? '+' : '') + value.replace(/\D/g, '');
}

/**
 * The phone field after an edit: `next` regrouped. Deleting the space the grouping put in would
 * change nothing, so it drops the digit before it instead; pasting or typing over the whole number
 * (the same digits without the spaces) keeps every digit.
 */
export function phoneAfterInput(previous: string, next: string, deleting: boolean): string {
  let keys = phoneKeystrokes(next);
  if (deleting && next.length < previous.length && keys === phoneKeystrokes(previous)) keys = keys.slice(0, -1);
  return formatPhoneAsTyped(keys);
}
