/** Raw Hrana-over-HTTP requests, the way @libsql/client sends them, for the local server's tests. */

export type HranaResponse = { status: number; type: string | null; text: string; json?: any };

/** One POST to the server at `baseUrl`; the body as JSON unless it is already a string (a malformed one). */
export async function postHrana(baseUrl: string, path: string, body: unknown): Promise<HranaResponse> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const type = res.headers.get('content-type');
  return { status: res.status, type, text, json: type === 'application/json' ? JSON.parse(text) : undefined };
}

/** A text value as Hrana encodes it. */
export const text = (value: string) => ({ type: 'text', value });
