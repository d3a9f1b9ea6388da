import { describe, expect, it } from 'vitest';
import { applePayAssociation } from './apple-pay';

describe('Apple Pay domain association file', () => {
  it('serves the configured file as text, and 404 with a message when unset', async () => {
    const set = applePayAssociation({ APPLE_PAY_DOMAIN_ASSOCIATION: '7B227073704964223A2239\n' });
    expect(set.status).toBe(200);
    expect(set.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await set.text()).toBe('7B227073704964223A2239');
    for (const value of [undefined, '', '   ']) {
      const unset = applePayAssociation({ APPLE_PAY_DOMAIN_ASSOCIATION: value });
      expect(unset.status).toBe(404);
      expect(await unset.json()).toEqual({ statusCode: 404, message: 'Apple Pay is not set up for this domain' });
    }
  });
});
