import { describe, expect, it } from 'vitest';
import { checkGiftAidDetails, hmrcLastName } from '../../../domain';
import { aggregateDescription, buildScheduleLines, type ScheduleGift, scheduleCsv } from './schedule';

const gift = (n: number, amount: number, date: string, extra: Partial<ScheduleGift> = {}): ScheduleGift => ({
  donationId: `d${String(n).padStart(4, '0')}`,
  declarationId: 'x',
  amount,
  date: new Date(date),
  title: null,
  firstName: 'A',
  lastName: 'B',
  house: '1',
  postcode: 'SW1A 1AA',
  ...extra,
});

describe('Gift Aid schedule lines', () => {
  it('caps an aggregated line at £1,000 and keeps gifts over £20 on their own lines', () => {
    const small = Array.from({ length: 60 }, (_, i) =>
      gift(i, 2000, `2025-06-${String((i % 28) + 1).padStart(2, '0')}T12:00:00Z`),
    );
    const lines = buildScheduleLines([...small, gift(99, 2001, '2025-06-01T12:00:00Z')], { aggregate: true });
    expect(lines.map((l) => [l.aggregated ? 'agg' : 'donor', l.amountPence])).toEqual([
      ['donor', 2001],
      ['agg', 100_000],
      ['agg', 20_000],
    ]);
    expect(lines.every((l) => l.aggregated.length <= 35)).toBe(true);
    expect(lines.map((l) => l.line)).toEqual([1, 2, 3]);
  });

  it('never puts gifts of two tax years on one aggregated line, and dates a line with its latest gift', () => {
    const lines = buildScheduleLines(
      [
        gift(1, 500, '2026-04-05T12:00:00Z'),
        gift(2, 500, '2026-04-06T12:00:00Z'),
        gift(3, 500, '2025-04-06T12:00:00Z'),
      ],
      { aggregate: true },
    );
    expect(lines.map((l) => [l.aggregated, l.donationDate.toISOString().slice(0, 10), l.amountPence])).toEqual([
      [aggregateDescription('2025-26'), '2026-04-05', 1000],
      [aggregateDescription('2026-27'), '2026-04-06', 500],
    ]);
  });

  it('stops at the line limit; the gifts left over are not on any line', () => {
    const gifts = Array.from({ length: 12 }, (_, i) =>
      gift(i, 5000, `2025-07-${String(i + 1).padStart(2, '0')}T12:00:00Z`),
    );
    const lines = buildScheduleLines(gifts, { aggregate: false, maxLines: 10 });
    expect(lines).toHaveLength(10);
    expect(lines.flatMap((l) => l.gifts.map((g) => g.donationId))).not.toContain('d0011');
  });

  it('writes HMRC formats: hyphen to space in surnames, DD/MM/YY in London, two decimals, RFC 4180 quoting', () => {
    expect(hmrcLastName('House-Martin')).toBe('House Martin');
    const csv = scheduleCsv([
      {
        title: 'Dr',
        firstName: 'Jo',
        lastName: 'Smith Jones',
        house: 'Flat 1, "The Mill"',
        postcode: 'EH1 1YZ',
        aggregated: '',
        sponsored: true,
        donationDate: new Date('2025-06-30T23:30:00Z'),
        amountPence: 5,
      },
    ]);
    expect(csv.split('\r\n')[1]).toBe('Dr,Jo,Smith Jones,"Flat 1, ""The Mill""",EH1 1YZ,,Yes,01/07/25,0.05');
  });

  it('refuses what HMRC would: long names, a long title, no house, a postcode that is not a UK one', () => {
    const ok = { first_name: 'Ada', last_name: 'Lovelace', house: '12', postcode: 'sw1a1aa' };
    expect(checkGiftAidDetails(ok)).toMatchObject({ ok: true, details: { postcode: 'SW1A 1AA', title: null } });
    const fields = (input: Parameters<typeof checkGiftAidDetails>[0]) => {
      const r = checkGiftAidDetails(input);
      return r.ok ? [] : r.problems.map((p) => p.field);
    };
    expect(fields({ ...ok, title: 'Doctor' })).toEqual(['title']);
    expect(fields({ ...ok, first_name: 'A'.repeat(36) })).toEqual(['first_name']);
    expect(fields({ ...ok, last_name: 'B'.repeat(36) })).toEqual(['last_name']);
    expect(fields({ ...ok, house: '  ' })).toEqual(['house']);
    expect(fields({ ...ok, postcode: '90210' })).toEqual(['postcode']);
    expect(fields({ ...ok, first_name: '=cmd()' })).toEqual(['first_name']);
  });
});
