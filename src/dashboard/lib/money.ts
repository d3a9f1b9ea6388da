/** Pounds text → integer pence; null when not a positive amount with at most 2 decimals. */
export function poundsToPence(text: string): number | null {
  const clean = text.replace(/[£,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  const pence = Math.round(Number(clean) * 100);
  return pence > 0 ? pence : null;
}

export function penceToPounds(pence: number | null | undefined): string {
  return typeof pence === 'number' ? (pence / 100).toFixed(2) : '';
}
