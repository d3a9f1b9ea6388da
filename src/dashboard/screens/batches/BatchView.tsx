import { formatPence } from '../../../../domain/money';
import { client } from '../../../lib/api';
import { formatDate } from '../../lib/dates';
import { useApiGet } from '../../lib/use-api';
import { Badge, PageHeader, Spinner } from '../../ui/primitives';

const methodLabel = (method: string) => method.replace(/_/g, ' ');

/** /dashboard/batches: posted batches, newest banked day first. */
export function BatchList() {
  const [load] = useApiGet('/api/donations/batches', (o) => client.api.donations.batches.$get({ query: {} }, o));
  return (
    <section className="dash-section">
      <PageHeader
        title="Batches"
        actions={
          <a className="btn btn-primary" href="/dashboard/batches/add">
            New batch
          </a>
        }
      />
      {load.status === 'ok' ? (
        load.data.length ? (
          <div className="dash-table-wrap">
            <div className="dash-table-scroll">
              <table className="dash-table" aria-label="Batches">
                <thead>
                  <tr>
                    <th>Banked on</th>
                    <th>Organization</th>
                    <th>Method</th>
                    <th>Reference</th>
                    <th>Gifts</th>
                    <th>Total</th>
                  </tr>
                </thead>
                <tbody>
                  {load.data.map((b) => (
                    <tr key={b._id}>
                      <td>
                        <a href={`/dashboard/batches/${b._id}`}>{b.banked_on}</a>
                      </td>
                      <td>{b.organization_name}</td>
                      <td>{methodLabel(b.method)}</td>
                      <td>{b.reference ?? '-'}</td>
                      <td>{b.gift_count}</td>
                      <td>{formatPence(b.expected_total)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        ) : (
          <p>No batches yet: enter a paying-in slip’s gifts with “New batch”.</p>
        )
      ) : load.status === 'error' ? (
        <p>{load.error.message}</p>
      ) : (
        <Spinner />
      )}
    </section>
  );
}

/** /dashboard/batches/:id: a posted batch and its gifts; each gift is corrected from its own page. */
export function BatchView({ id }: { id: string }) {
  const [load] = useApiGet(`/api/donations/batches/${id}`, (o) =>
    client.api.donations.batches[':id'].$get({ param: { id } }, o),
  );
  if (load.status === 'error') return <h1 className="dash-not-found">Not Found</h1>;
  if (load.status !== 'ok') return <Spinner />;
  const b = load.data;
  return (
    <section className="dash-section dash-batch">
      <PageHeader title={`Batch banked ${b.banked_on}`} back={<a href="/dashboard/batches">All batches</a>} />
      <p className="dash-batch-summary">
        <Badge>Posted</Badge> {b.gift_count} {b.gift_count === 1 ? 'gift' : 'gifts'} by {methodLabel(b.method)} to{' '}
        {b.organization_name}, total <strong>{formatPence(b.expected_total)}</strong>
        {b.reference ? `, reference ${b.reference}` : ''}. Posted {formatDate(b.created_at)}.
      </p>
      <div className="dash-table-wrap">
        <div className="dash-table-scroll">
          <table className="dash-table" aria-label="Gifts in this batch">
            <thead>
              <tr>
                <th>#</th>
                <th>Donor</th>
                <th>Amount</th>
                <th>Fund</th>
                <th>Gift Aid</th>
                <th>Reference</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {b.gifts.map((g) => (
                <tr key={g._id}>
                  <td>{g.line}</td>
                  <td>{g.donor_name}</td>
                  <td>
                    {formatPence(g.amount)}
                    {g.refunded_amount ? ` (${formatPence(g.refunded_amount)} reversed)` : ''}
                  </td>
                  <td>{g.campaign_title}</td>
                  <td>{g.gift_aid ? 'Yes' : 'No'}</td>
                  <td>{g.reference ?? '-'}</td>
                  <td>
                    <a href={`/dashboard/donations/edit/${g._id}`}>{g.status}</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
