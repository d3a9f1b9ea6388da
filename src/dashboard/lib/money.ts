import { penceToDecimal } from '../../../domain/money';
import { parsePounds } from '../../lib/format';

/** A positive amount typed in pounds, as pence (null otherwise). */
export function poundsToPence(text: string): number | null {
  const pence = parsePounds(text);
  return pence && pence > 0 ? pence : null;
}

/** An amount field's text in a finance form: always two places ("50.00"), empty when there is none. */
export function penceToPounds(pence: number | null | undefined): string {
  return typeof pence === 'number' ? penceToDecimal(pence) : '';
}
