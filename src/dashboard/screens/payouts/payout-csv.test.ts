import { describe, expect, it } from 'vitest';
import { payoutCsv } from './payout-csv';

const line = (over: Partial<Parameters<typeof payoutCsv>[0]['lines'][number]>) => ({
  balance_transaction_id: 'txn_1',
  type: 'charge',
  donation_id: 'd1',
  donor_name: 'Zoë Smith',
  campaign_title: 'Winter Warmth',
  amount: 2_500,
  fee: 58,
  net: 2_442,
  ...over,
});

describe("a payout's CSV", () => {
  it('keeps a refund line a negative number, makes a formula-like name inert and starts with the byte order mark', () => {
    const text = payoutCsv(
      {
        _id: 'po_1',
        arrival_date: '2026-11-24T00:00:00.000Z',
        lines: [
          line({}),
          line({
            balance_transaction_id: 'txn_2',
            type: 'refund',
            donor_name: '=HYPERLINK("x")',
            amount: -1_250,
            fee: 0,
            net: -1_250,
          }),
        ],
      },
      (type) => (type === 'refund' ? 'Refund' : 'Gift'),
    );
    expect(text.startsWith('\uFEFFPayout,Arrives,')).toBe(true);
    const rows = text.slice(1).split('\r\n');
    expect(rows[1]).toBe('po_1,2026-11-24,txn_1,Gift,d1,Zoë Smith,Winter Warmth,25.00,0.58,24.42');
    expect(rows[2]).toBe('po_1,2026-11-24,txn_2,Refund,d1,"\'=HYPERLINK(""x"")",Winter Warmth,-12.50,0.00,-12.50');
    expect(rows[3]).toBe('');
  });
});
