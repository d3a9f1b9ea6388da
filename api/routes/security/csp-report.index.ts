import { bodyLimit } from 'hono/body-limit';
import { createRouter } from '../../lib/create-app';
import { errorResponses, routesOf } from '../../lib/openapi';
import { logLine } from '../../middlewares/logger';
import { clientIp, hitRateLimit } from '../../services/abuse/rate-limit';

/** Reports are small; anything bigger is not a browser's report. */
export const CSP_REPORT_BODY_LIMIT = 16 * 1024;
/** Reports logged per client address per window; the rest are dropped (still 204). */
export const CSP_REPORT_LIMIT = { limit: 20, windowMs: 10 * 60 * 1000 };

type Violation = Record<string, unknown>;

/** A URL without its query and fragment (they can carry tokens), or the keyword browsers send. */
function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string' || !value) return null;
  try {
    const url = new URL(value);
    return `${url.origin}${url.pathname}`.slice(0, 200);
  } catch {
    return value.replace(/[?#].*$/, '').slice(0, 60);
  }
}

const text = (value: unknown, max = 100) =>
  typeof value === 'string' ? value.slice(0, max) : typeof value === 'number' ? value : null;

/** Both formats: `report-uri` ({"csp-report": {...}}) and the Reporting API ([{type, body}]). */
function violations(body: unknown): Violation[] {
  if (Array.isArray(body)) {
    return body
      .filter((r) => r && typeof r === 'object' && (r as { type?: unknown }).type === 'csp-violation')
      .map((r) => (r as { body?: Violation }).body ?? {})
      .slice(0, 10);
  }
  const legacy = (body as { 'csp-report'?: Violation } | null)?.['csp-report'];
  return legacy && typeof legacy === 'object' ? [legacy] : [];
}

/**
 * POST /api/csp-report: where browsers report what the Content-Security-Policy blocked. Each report
 * becomes one warning log line (directive, blocked URL, page path), rate limited per address so a
 * noisy page or a flood cannot fill the logs or the database. Always 204: nothing to tell a browser.
 */
const operations = routesOf({ tags: ['Operations'] });

const cspReportRoute = operations.post('/csp-report', {
  summary: 'Content-Security-Policy violation reports from browsers (report-uri and Reporting API formats)',
  description:
    'The body is read as text and parsed here, since browsers send application/csp-report or application/reports+json; ' +
    'anything that is not a report is dropped. Rate limited per address; always 204.',
  middleware: [bodyLimit({ maxSize: CSP_REPORT_BODY_LIMIT, onError: (c) => c.body(null, 413) })],
  responses: { 204: { description: 'Logged, dropped, or rate limited: nothing to tell a browser' }, ...errorResponses },
});

export const cspReportRouter = createRouter().openapi(cspReportRoute, async (c) => {
  let body: unknown = null;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    return c.body(null, 204);
  }
  const found = violations(body);
  if (!found.length) return c.body(null, 204);
  const ip = clientIp({ get: (h) => c.req.header(h) });
  const { allowed } = await hitRateLimit(c.var.db, `csp-report:ip:${ip}`, CSP_REPORT_LIMIT, new Date());
  if (!allowed) return c.body(null, 204);
  for (const v of found) {
    logLine('warn', 'csp violation', {
      request_id: c.var.requestId,
      directive: text(
        v['effectiveDirective'] ?? v['effective-directive'] ?? v['violatedDirective'] ?? v['violated-directive'],
      ),
      blocked: safeUrl(v['blockedURL'] ?? v['blocked-uri']),
      page: safeUrl(v['documentURL'] ?? v['document-uri']),
      source: safeUrl(v['sourceFile'] ?? v['source-file']),
      line: text(v['lineNumber'] ?? v['line-number']),
      disposition: text(v['disposition'], 20),
    });
  }
  return c.body(null, 204);
});
