export type DonationLike = { amount?: number | null; status?: string | null; date?: string | number | null; type?: string | null };

/** Totals for the overview: only gifts that went through count (pending/failed are left out). */
export function donationTotals(rows: DonationLike[]): { total: number; count: number; monthly: number; last: string | number | null } {
  let total = 0;
  let count = 0;
  let monthly = 0;
  let last: string | number | null = null;
  let lastTime = -Infinity;
  for (const row of rows) {
    if (row.status && !['succeeded', 'refunded'].includes(row.status)) continue;
    total += typeof row.amount === 'number' ? row.amount : 0;
    count += 1;
    if (row.type === 'monthly') monthly += 1;
    const t = row.date ? new Date(row.date).getTime() : NaN;
    if (!Number.isNaN(t) && t > lastTime) {
      lastTime = t;
      last = row.date ?? null;
    }
  }
  return { total, count, monthly, last };
}
