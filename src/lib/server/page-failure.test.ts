import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MissingSettingError } from '../../../api/lib/config';
import { pageFailureResponse } from './page-failure';

afterEach(() => vi.restoreAllMocks());

const outages = {
  d1: new Error('Failed query: select "id" from "campaigns" params: a@example.org', {
    cause: new Error('D1_ERROR: Network connection lost.'),
  }),
  libsql: new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8080'), { code: 'ECONNREFUSED' }),
  }),
  'missing PUBLIC_ORIGIN': new MissingSettingError('PUBLIC_ORIGIN'),
};

describe('pages when the database is unreachable', () => {
  for (const [engine, error] of Object.entries(outages)) {
    it(`answer the branded 503 with Retry-After and a reference, no stack (${engine})`, async () => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {});
      const res = (await pageFailureResponse(error, 'req-123abc', '/campaigns/[id]'))!;
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('30');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toMatch(/<title>Busy right now \| UK NFP<\/title>/);
      expect(html).toContain('We are very busy right now');
      expect(html).toContain('reference req-123abc');
      expect(html).not.toMatch(/\bat \S+:\d+|Error|ECONN|D1_|params|a@example\.org/);
      expect(html).not.toMatch(/<script/i);
      // Its only inline style is allowed by hash; nothing else may load.
      const style = /<style>([^<]*)<\/style>/.exec(html)![1];
      const hash = createHash('sha256').update(style).digest('base64');
      expect(res.headers.get('content-security-policy')).toBe(
        `default-src 'none'; img-src 'self'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      );
      // Logged with the reference and the route, without the query's values.
      const line = JSON.parse(String(log.mock.calls[0][0]));
      expect(line).toMatchObject({
        level: 'error',
        msg: 'page unavailable',
        request_id: 'req-123abc',
        route: '/campaigns/[id]',
      });
      expect(JSON.stringify(line)).not.toContain('a@example.org');
    });
  }

  it('leaves other errors to the 500 page', async () => {
    expect(await pageFailureResponse(new Error('Cannot read properties of undefined'), 'r', '/')).toBeNull();
  });

  it('escapes the reference it shows', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = (await pageFailureResponse(outages.d1, '<script>x</script>', '/'))!;
    expect(await res.text()).not.toContain('<script>x');
  });
});
