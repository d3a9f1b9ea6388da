import { client } from '../../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { useApiGet } from '../../lib/use-api';
import { Alert, Stat } from '../../ui/primitives';

/**
 * The overview's email delivery figures for site admins (GET /api/health/mail): receipts still on their
 * way to the mail provider, the ones its retries gave up on (those donors have no receipt), and the day's sent.
 */
export function MailHealth() {
  const [load] = useApiGet('/api/health/mail', (o) => client.api.health.mail.$get(undefined, o));
  if (load.status === 'error')
    return <Alert tone="info">Email delivery figures are not available right now: {load.error.message}</Alert>;
  const s = load.status === 'ok' ? load.data : null;
  return (
    <>
      <h2 className="dash-h2">Email delivery</h2>
      {s && !s.provider ? (
        // Development: the outbox is printed to the log and never marked sent, so counts would mislead.
        <Alert tone="info">No mail provider is set up (MAIL_API_KEY): emails stay in the local outbox.</Alert>
      ) : (
        <>
          {s && s.given_up > 0 ? (
            <Alert>
              {s.given_up === 1 ? '1 email was' : `${s.given_up} emails were`} not sent after every retry. Check the
              mail provider's key and status; the donors concerned have no receipt.
            </Alert>
          ) : null}
          <dl className="dash-stats" aria-label="Email delivery">
            <Stat label="Waiting to send">{s ? s.waiting : '…'}</Stat>
            <Stat label="Oldest waiting since">
              {s ? (s.oldest_waiting_at ? formatDateTime(s.oldest_waiting_at) : 'None waiting') : '…'}
            </Stat>
            <Stat label="Not sent after retries">{s ? s.given_up : '…'}</Stat>
            <Stat label="Sent in the last day">{s ? s.sent_last_day : '…'}</Stat>
          </dl>
        </>
      )}
    </>
  );
}
