import { describe, expect, it } from 'vitest';
import { countRowStats, newRequestContext, requestContext } from './usage';

/** The counts a JSON answer adds to a request's context. */
function countsOf(body: unknown) {
  const context = newRequestContext('test');
  requestContext.run(context, () => countRowStats(JSON.stringify(body)));
  return [context.rowsRead, context.rowsWritten];
}

describe('countRowStats', () => {
  it("sums D1's per-statement meta", () => {
    const d1 = [
      { results: [{ id: 1 }], meta: { rows_read: 3, rows_written: 0 } },
      { results: [], meta: { rows_read: 2, rows_written: 5 } },
    ];
    expect(countsOf(d1)).toEqual([5, 5]);
  });

  it("sums a Hrana pipeline's execute and batch step results", () => {
    const hrana = {
      results: [
        { type: 'ok', response: { type: 'execute', result: { rows: [], rows_read: 7, rows_written: 1 } } },
        {
          type: 'ok',
          response: { type: 'batch', result: { step_results: [{ rows_read: 1, rows_written: 2 }, null] } },
        },
      ],
    };
    expect(countsOf(hrana)).toEqual([8, 3]);
  });

  it('does not count a stored text that looks like the stats', () => {
    const d1 = [
      { results: [{ message: '"rows_read":999 "rows_written":999' }], meta: { rows_read: 1, rows_written: 0 } },
    ];
    expect(countsOf(d1)).toEqual([1, 0]);
  });

  it('leaves the counts empty when the engine reports none', () => {
    expect(countsOf({ results: [{ id: 1 }] })).toEqual([null, null]);
  });
});
