import { formatLongUkDate, londonMidnight } from '../../../../domain/dates';
import { formatPence } from '../../../../domain/money';
import { client } from '../../../lib/api';
import { formatDate } from '../../lib/dates';
import { useApiGet } from '../../lib/use-api';
import { Badge, LinkButton, NotFound, PageHeader, Spinner } from '../../ui/primitives';
import { SimpleTable } from '../../ui/SimpleTable';

const methodLabel = (method: string) => method.replace(/_/g, ' ');
/** "cheque", or "cheque and cash" for a slip that mixes them. */
const methodsLabel = (methods: string[]) => {
  const words = methods.map(methodLabel);
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '');
};
/** The banked day as people write it ("24 November 2026"), whatever the browser's zone. */
const bankedDay = (isoDay: string) => formatLongUkDate(londonMidnight(isoDay));

/** /dashboard/batches: posted batches, newest banked day first. */
export function BatchList() {
  const [load] = useApiGet('/api/donations/batches', (o) => client.api.donations.batches.$get({ query: {} }, o));
  return (
    <section className="dash-section">
      <PageHeader title="Batches" actions={<LinkButton href="/dashboard/batches/add">New batch</LinkButton>} />
      {load.status === 'ok' ? (
        <SimpleTable
          label="Batches"
          rows={load.data}
          columns={[
            { header: 'Banked on', cell: (b) => <a href={`/dashboard/batches/${b._id}`}>{bankedDay(b.banked_on)}</a> },
            { header: 'Organization', cell: (b) => b.organization_name },
            { header: 'Method', cell: (b) => methodsLabel(b.methods) },
            { header: 'Reference', cell: (b) => b.reference ?? '-' },
            { header: 'Gifts', cell: (b) => b.gift_count },
            { header: 'Total', cell: (b) => formatPence(b.expected_total) },
          ]}
          empty={<p>No batches yet: enter a paying-in slip’s gifts with “New batch”.</p>}
        />
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
  if (load.status === 'error')
    return <NotFound title="Not Found" back="/dashboard/batches" backLabel="Back to Batches" />;
  if (load.status !== 'ok') return <Spinner />;
  const b = load.data;
  return (
    <section className="dash-section dash-batch">
      <PageHeader
        title={`Batch banked ${bankedDay(b.banked_on)}`}
        back={<a href="/dashboard/batches">All batches</a>}
      />
      <p className="dash-batch-summary">
        <Badge>Posted</Badge> {b.gift_count} {b.gift_count === 1 ? 'gift' : 'gifts'} by {methodsLabel(b.methods)} to{' '}
        {b.organization_name}, total <strong>{formatPence(b.expected_total)}</strong>
        {b.reference ? `, reference ${b.reference}` : ''}. Posted {formatDate(b.created_at)}.
      </p>
      <SimpleTable
        label="Gifts in this batch"
        rows={b.gifts}
        columns={[
          { header: '#', cell: (g) => g.line },
          { header: 'Donor', cell: (g) => g.donor_name },
          {
            header: 'Amount',
            cell: (g) => (
              <>
                {formatPence(g.amount)}
                {g.refunded_amount ? ` (${formatPence(g.refunded_amount)} reversed)` : ''}
              </>
            ),
          },
          // A slip of one method says it once, above; a mixed one says each gift's.
          ...(b.methods.length > 1
            ? [{ header: 'Paid by', cell: (g: (typeof b.gifts)[number]) => methodLabel(g.method) }]
            : []),
          { header: 'Fund', cell: (g) => g.campaign_title },
          { header: 'Gift Aid', cell: (g) => (g.gift_aid ? 'Yes' : 'No') },
          { header: 'Reference', cell: (g) => g.reference ?? '-' },
          {
            header: 'Status',
            // Offline money taken back is a reversal, as the gift's own page says; the link opens that page.
            cell: (g) => (
              <a href={`/dashboard/donations/edit/${g._id}`}>
                {g.status === 'refunded' ? 'Reversed' : g.refunded_amount ? 'Partly reversed' : 'Banked'}
              </a>
            ),
          },
        ]}
      />
    </section>
  );
}
