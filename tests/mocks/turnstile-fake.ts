import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Turnstile's siteverify endpoint (challenges.cloudflare.com is unreachable
 * from tests), at the network boundary: point TURNSTILE_VERIFY_URL at `fake.url`. It behaves like
 * the documented test keys: the always-pass secret accepts any token once (tokens are single use),
 * the always-fail secret rejects everything, and the token `bad-token` always fails.
 */
export const PASS_SECRET = '1x0000000000000000000000000000000AA';
export const FAIL_SECRET = '2x0000000000000000000000000000000AA';
export const PASS_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';

export type TurnstileFake = {
  url: string;
  requests: { secret: string; response: string; remoteip?: string }[];
  close(): Promise<void>;
};

export async function startTurnstileFake(): Promise<TurnstileFake> {
  const spent = new Set<string>();
  const requests: TurnstileFake['requests'] = [];
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    let body: Record<string, string> = {};
    try {
      body = req.headers['content-type']?.includes('json')
        ? JSON.parse(raw)
        : Object.fromEntries(new URLSearchParams(raw));
    } catch {
      body = {};
    }
    requests.push({ secret: body.secret, response: body.response, remoteip: body.remoteip });
    const answer = (success: boolean, codes: string[] = []) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          success,
          'error-codes': codes,
          ...(success ? { challenge_ts: new Date().toISOString(), hostname: 'localhost' } : {}),
        }),
      );
    };
    if (!body.secret) return answer(false, ['missing-input-secret']);
    if (!body.response) return answer(false, ['missing-input-response']);
    if (body.secret === FAIL_SECRET || body.response === 'bad-token') return answer(false, ['invalid-input-response']);
    if (body.secret !== PASS_SECRET) return answer(false, ['invalid-input-secret']);
    if (spent.has(body.response)) return answer(false, ['timeout-or-duplicate']);
    spent.add(body.response);
    return answer(true);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/turnstile/v0/siteverify`;
  return { url, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
