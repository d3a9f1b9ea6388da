import type { MailContext } from './facts';
import { linkOrigin } from '../monthly-gifts/link-tokens';

/** The mail context of a request: links in emails point at PUBLIC_ORIGIN or the request's origin. */
export const mailContextOf = (c: {
  var: { db: MailContext['db']; config: MailContext['config'] };
  req: { url: string };
}): MailContext => ({
  db: c.var.db,
  config: c.var.config,
  origin: linkOrigin(c.var.config.publicOrigin, c.req.url),
});
