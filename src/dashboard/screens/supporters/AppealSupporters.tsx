import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { client, type Data } from '../../../lib/api';
import { formatPence } from '../../../lib/format';
import { formatDate } from '../../lib/dates';
import { useApiGet } from '../../lib/use-api';
import { $dashUser, isStaff } from '../../session';
import { Alert, Badge, NotFound, PageHeader, Spinner } from '../../ui/primitives';
import { Pager } from '../../ui/Pager';
import { SimpleTable } from '../../ui/SimpleTable';

const supportersApi = client.api.appeals[':id'].supporters;
type Supporter = Data<typeof supportersApi.$get>[number];

/** Supporters a page shows; Previous and Next go through the rest. */
export const SUPPORTERS_PAGE = 50;

export const supportersPath = (appealId: string) => `/dashboard/supporters/${encodeURIComponent(appealId)}`;

/** "4 supporters" / "1 supporter": the whole list's length, from X-Total-Count. */
export const supportersCount = (total: number) =>
  `${total.toLocaleString('en-GB')} ${total === 1 ? 'supporter' : 'supporters'}`;

/**
 * /dashboard/supporters/{id} (decision 075): every paid gift to an appeal, newest first, for its
 * fundraiser to thank, shown as the appeal's page shows its donors (no email, no Gift Aid choice).
 */
export function AppealSupporters({ id }: { id: string }) {
  const user = useStore($dashUser);
  const [page, setPage] = useState(1);
  const offset = (page - 1) * SUPPORTERS_PAGE;
  const [appeal] = useApiGet(`campaigns/${id}`, (o) => client.api.campaigns[':id'].$get({ param: { id } }, o));
  const [load] = useApiGet(`appeals/${id}/supporters?offset=${offset}`, (o) =>
    supportersApi.$get({ param: { id }, query: { limit: String(SUPPORTERS_PAGE), offset: String(offset) } }, o),
  );
  const title = appeal.status === 'ok' ? appeal.data.title : null;
  // The page on screen stays while the next one loads: the button just pressed keeps its focus.
  const [shown, setShown] = useState<{ rows: Supporter[]; total: number; from: number } | null>(null);
  useEffect(() => {
    if (load.status === 'ok')
      setShown({
        rows: load.data,
        total: Number(load.headers.get('x-total-count') ?? load.data.length),
        from: offset,
      });
    // Only when an answer arrives: it is always the answer for the current offset (useApiGet's key).
  }, [load]);

  if (load.status === 'error' && load.error.statusCode === 404)
    return <NotFound title="Appeal Not Found" back="/dashboard/active-appeals" backLabel="Back to Appeals" />;
  const total = shown?.total ?? null;
  const rows = shown?.rows ?? [];
  return (
    <section className="dash-section">
      <PageHeader
        title="Supporters"
        back={<a href="/dashboard/active-appeals">{isStaff(user) ? 'Active Appeals' : 'My Appeals'}</a>}
      />
      {title ? (
        <p className="dash-muted">
          Everyone who has given to <strong>{title}</strong>, newest first, as the appeal&rsquo;s page shows them. A
          supporter who gave anonymously is shown as Anonymous, and an amount they chose to hide is not shown.
        </p>
      ) : null}
      {load.status === 'error' ? <Alert>{load.error.message}</Alert> : null}
      {!shown && (load.status === 'loading' || load.status === 'idle') ? <Spinner /> : null}
      {total !== null ? <p className="dash-muted">{supportersCount(total)}</p> : null}
      {shown && rows.length === 0 && page > 1 ? (
        // Gifts refunded since the list was opened can leave a later page empty.
        <p className="dash-empty">No more supporters past {offset.toLocaleString('en-GB')}.</p>
      ) : shown ? (
        <SimpleTable<Supporter>
          label="Supporters"
          rows={rows}
          empty={<p className="dash-empty">No gifts yet. Share your appeal to get your first supporter.</p>}
          columns={[
            { header: 'Date', cell: (s) => formatDate(s.date) },
            {
              header: 'Supporter',
              cell: (s) => (
                <>
                  {s.name}
                  {s.monthly ? (
                    <>
                      {' '}
                      <Badge tone="muted">Monthly</Badge>
                    </>
                  ) : null}
                </>
              ),
            },
            { header: 'Amount', cell: (s) => (s.amount === null ? 'Hidden' : formatPence(s.amount)) },
            { header: 'Message', cell: (s) => s.message ?? '–', className: 'dash-support-body' },
          ]}
        />
      ) : null}
      {total !== null && (total > SUPPORTERS_PAGE || page > 1) ? (
        <Pager
          label="Supporters pages"
          info={
            rows.length
              ? `Supporters ${(shown?.from ?? 0) + 1}–${(shown?.from ?? 0) + rows.length} of ${total.toLocaleString('en-GB')}`
              : `${supportersCount(total)} in all`
          }
          step={SUPPORTERS_PAGE}
          hasPrevious={page > 1}
          hasNext={(shown?.from ?? 0) + rows.length < total}
          onMove={(by) => setPage((n) => n + by)}
        />
      ) : null}
    </section>
  );
}
