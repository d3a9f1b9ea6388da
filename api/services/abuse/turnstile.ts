import type { AppConfig } from '../../lib/config';
import { HttpError } from '../../lib/errors';
import { logLine } from '../../middlewares/logger';
import { RateLimitError } from './rate-limit';

/**
 * Cloudflare Turnstile, asked for only once a caller passes a threshold (CHALLENGE_THRESHOLDS):
 * the island shows the widget when an answer is 428 and sends its token back as `turnstile_token`.
 */
export const CHALLENGE_REQUIRED = 'Please complete the security check below, then try again.';
export const CHALLENGE_FAILED = 'The security check did not pass. Please try it again.';

type Verdict = 'pass' | 'fail' | 'unavailable';

/** Asks siteverify about one token (single use: a replayed token fails). */
export async function verifyTurnstileToken(
  config: Pick<AppConfig, 'turnstileSecretKey' | 'turnstileVerifyUrl'>,
  token: string,
  ip: string | null,
): Promise<Verdict> {
  if (!config.turnstileSecretKey) return 'unavailable';
  try {
    const res = await fetch(config.turnstileVerifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secret: config.turnstileSecretKey, response: token, ...(ip ? { remoteip: ip } : {}) }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`siteverify answered ${res.status}`);
    const body = (await res.json()) as { success?: unknown; 'error-codes'?: unknown };
    if (body.success === true) return 'pass';
    logLine('warn', 'turnstile check failed', {
      errors: Array.isArray(body['error-codes']) ? body['error-codes'].join(',').slice(0, 200) : null,
    });
    return 'fail';
  } catch (error) {
    logLine('error', 'turnstile siteverify unreachable', { error: (error as Error)?.message ?? String(error) });
    return 'unavailable';
  }
}

/**
 * Passes when the caller sent a token that siteverify accepts. Without Turnstile configured the
 * threshold becomes a plain limit (429), so a deployment that forgets the keys still throttles.
 */
export async function requireChallenge(
  config: Pick<AppConfig, 'turnstileSecretKey' | 'turnstileSiteKey' | 'turnstileVerifyUrl'>,
  token: string | null | undefined,
  ip: string | null,
): Promise<void> {
  if (!config.turnstileSecretKey || !config.turnstileSiteKey) {
    throw new RateLimitError('Too many attempts from here. Please wait 15 minutes and try again.', 15 * 60);
  }
  if (!token) throw new HttpError(428, CHALLENGE_REQUIRED);
  const verdict = await verifyTurnstileToken(config, token, ip);
  if (verdict === 'unavailable')
    throw new HttpError(503, 'The security check is unavailable right now. Please try again in a minute.');
  if (verdict === 'fail') throw new HttpError(428, CHALLENGE_FAILED);
}
