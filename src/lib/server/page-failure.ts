import { isTemporarilyUnavailable } from '../../../api/lib/unavailable';
import { errorSummary, logLine } from '../../../api/middlewares/logger';
import { unavailableResponse } from './unavailable-page';

/**
 * What a page answers when rendering it threw: the branded 503 (with Retry-After) when the
 * database is unreachable or production lacks a setting, else null (Astro's 500 page takes over).
 */
export async function pageFailureResponse(error: unknown, requestId: string, route: string): Promise<Response | null> {
  if (!isTemporarilyUnavailable(error)) return null;
  logLine('error', 'page unavailable', { request_id: requestId, route, error: errorSummary(error) });
  return unavailableResponse(requestId);
}
