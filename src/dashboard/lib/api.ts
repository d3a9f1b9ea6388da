/** Path-based calls for the dashboard screens not yet on typed calls: the one client's `apiPath` (src/lib/api.ts). */
export { type ApiError, type ApiResult, apiPath as api, isApiError } from '../../lib/api';
