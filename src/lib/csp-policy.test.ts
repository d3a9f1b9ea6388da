import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { security } from './csp-policy.mjs';
import { SECURITY_HEADERS } from './server/security-headers';

/** The policy's directives by name: `{ 'frame-src': ['https://js.stripe.com', ...] }`. */
function directives(): Record<string, string[]> {
  const csp = security?.csp && typeof security.csp === 'object' ? security.csp : null;
  const byName: Record<string, string[]> = {};
  for (const line of csp?.directives ?? []) {
    const [name, ...sources] = line.split(' ');
    byName[name] = sources;
  }
  const scripts = csp?.scriptDirective?.resources ?? [];
  byName['script-src'] = scripts.map((r) => (typeof r === 'string' ? r : r.resource));
  return byName;
}

describe('the Content-Security-Policy lets Stripe take payments', () => {
  const d = directives();

  it("loads Stripe.js and its Payment Element frames (cards, Bacs Direct Debit's mandate form, Apple Pay and Google Pay run in them)", () => {
    expect(d['script-src']).toEqual(expect.arrayContaining(['https://js.stripe.com', 'https://*.js.stripe.com']));
    expect(d['frame-src']).toEqual(expect.arrayContaining(['https://js.stripe.com', 'https://*.js.stripe.com']));
  });

  it('opens 3D Secure and redirect pages (hooks.stripe.com) and talks to Stripe’s API', () => {
    expect(d['frame-src']).toContain('https://hooks.stripe.com');
    expect(d['connect-src']).toContain('https://api.stripe.com');
  });

  it('keeps everything else to our own origin, with no inline script allowed by a keyword', () => {
    expect(d['default-src']).toEqual(["'self'"]);
    expect(d['object-src']).toEqual(["'none'"]);
    expect(d['script-src']).not.toContain("'unsafe-inline'");
    expect(d['script-src']).not.toContain("'unsafe-eval'");
    // No wildcard wider than Stripe's own subdomains.
    for (const source of [...d['script-src'], ...d['frame-src'], ...d['connect-src']])
      expect(source).not.toMatch(/^(\*|https:\/\/\*\.stripe\.com|https:)$/);
  });

  it('does not switch off the Payment Request API that Apple Pay and Google Pay use (Permissions-Policy)', () => {
    const headerFile = readFileSync('public/_headers', 'utf8');
    const policies = [SECURITY_HEADERS['Permissions-Policy'], /Permissions-Policy: (.*)/.exec(headerFile)?.[1] ?? ''];
    for (const policy of policies) {
      expect(policy).toMatch(/camera=\(\)/);
      expect(policy).not.toMatch(/\bpayment=/);
    }
  });
});
