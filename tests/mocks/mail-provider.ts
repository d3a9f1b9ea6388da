import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedMail = { method?: string; url?: string; headers: IncomingMessage['headers']; body: any };

/** A stand-in for the mail provider at the network boundary: a real HTTP server on a free port. */
export function fakeMailProvider() {
  const received: ReceivedMail[] = [];
  let status = 200;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: JSON.parse(raw || 'null') });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status < 300 ? { id: `msg_${received.length}` } : { message: 'provider is down' }));
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
