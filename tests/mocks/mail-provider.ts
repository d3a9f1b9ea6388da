import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message as the provider received it; `body` is the message, alone or taken out of its batch. */
export type ReceivedMail = {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
  body: any;
  /** Set for a message that came in a batch request (POST …/emails/batch): its place in the batch. */
  batchIndex?: number;
  /** When its request arrived (ms since the epoch). */
  at: number;
};

/**
 * A stand-in for the mail provider at the network boundary: a real HTTP server on a free port that
 * answers as Resend does, `{id}` for POST /emails and `{data: [{id}, …]}` for POST /emails/batch.
 */
export function fakeMailProvider() {
  const received: ReceivedMail[] = [];
  let status = 200;
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/received') {
      // For tests that cannot read `received` in this process (workerd's).
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(received));
      return;
    }
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw || 'null');
      const batch = req.url?.endsWith('/batch') && Array.isArray(body);
      const messages: unknown[] = batch ? body : [body];
      const first = received.length;
      const at = Date.now();
      messages.forEach((message, i) =>
        received.push({
          at,
          method: req.method,
          url: req.url,
          headers: req.headers,
          body: message,
          ...(batch ? { batchIndex: i } : {}),
        }),
      );
      const id = (i: number) => `msg_${first + i + 1}`;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          status >= 300
            ? { message: 'provider is down' }
            : batch
              ? { data: messages.map((_, i) => ({ id: id(i) })) }
              : { id: id(0) },
        ),
      );
    });
  });
  return {
    received,
    setStatus: (s: number) => (status = s),
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/emails`),
        ),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The requests behind received messages (a batch counts once) and the most that arrived in one second. */
export function providerRequests(received: ReceivedMail[]) {
  const requests = received.filter((mail) => (mail.batchIndex ?? 0) === 0);
  const perSecond = new Map<number, number>();
  for (const r of requests) perSecond.set(Math.floor(r.at / 1000), (perSecond.get(Math.floor(r.at / 1000)) ?? 0) + 1);
  return {
    messages: received.length,
    requests: requests.length,
    batchRequests: requests.filter((r) => r.batchIndex === 0).length,
    mostInOneSecond: Math.max(0, ...perSecond.values()),
  };
}
