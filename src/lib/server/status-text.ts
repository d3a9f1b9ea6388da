/** Reason phrases for the statuses our pages answer with. */
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  422: 'Unprocessable Content',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * A page that sets `Astro.response.status` keeps the default status text "OK", and the status
 * line then reads "404 OK". Gives such an answer the reason phrase that belongs to its status.
 */
export function withReasonPhrase(response: Response): Response {
  const reason = REASONS[response.status];
  if (!reason || response.statusText === reason) return response;
  if (response.statusText && response.statusText !== 'OK') return response;
  return new Response(response.body, { status: response.status, statusText: reason, headers: response.headers });
}
