import { parsePounds } from '../../lib/format';

/** A positive amount typed in pounds, as pence (null otherwise). */
export function poundsToPence(text: string): number | null {
  const pence = parsePounds(text);
  return pence && pence > 0 ? pence : null;
}

export function penceToPounds(pence: number | null | undefined): string {
  return typeof pence === 'number' ? (pence / 100).toFixed(2) : '';
}
