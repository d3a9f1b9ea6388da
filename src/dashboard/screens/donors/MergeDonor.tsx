import { useEffect, useRef, useState } from 'react';
import { isDonorType } from '../../../../domain/roles';
import { api, client, type Donor } from '../../../lib/api';
import { useApiGet } from '../../lib/use-api';
import { navigate } from '../../router';
import { Alert } from '../../ui/primitives';

const MIN_SEARCH = 3;

const nameOf = (d: Pick<Donor, 'name' | 'email'>) => `${d.name.first_name} ${d.name.last_name}`.trim() || d.email;

/**
 * "Merge into…": pick the record that survives by searching its email, confirm, and every gift,
 * declaration, monthly gift, consent and organization link moves there; this record is deleted.
 */
export function MergeDonor({ donorId }: { donorId: string }) {
  const [open, setOpen] = useState(false);
  const [term, setTerm] = useState('');
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<Donor | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [self] = useApiGet(`users/${donorId}`, (o) => client.api.users[':id'].$get({ param: { id: donorId } }, o));
  const query = { search, type: 'donor' as const, limit: '10' };
  const [found] = useApiGet(open && search.length >= MIN_SEARCH ? `users?merge=${search}` : null, (o) =>
    client.api.users.$get({ query }, o),
  );
  // Each step replaces the control that opened it: focus follows to the new step (and back to
  // "Merge into…" on Cancel) instead of falling to the page's top.
  const openerRef = useRef<HTMLButtonElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (chosen) dialogRef.current?.focus();
    else if (open) searchRef.current?.focus();
    else if (wasOpen.current) openerRef.current?.focus();
    wasOpen.current = open;
  }, [open, chosen]);
  if (self.status !== 'ok' || !isDonorType(self.data)) return null;
  const source = self.data;
  const candidates = found.status === 'ok' ? found.data.filter((d) => d._id !== source._id) : [];

  async function merge() {
    if (!chosen) return;
    setBusy(true);
    setError(null);
    const res = await api((o) =>
      client.api.users[':id'].merge.$post({ param: { id: source._id }, json: { into: chosen._id } }, o),
    );
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    navigate(`/dashboard/donors/edit/${encodeURIComponent(res.data.into)}?merged=${res.data.moved.donations}`);
  }

  return (
    <section className="merge-panel" aria-labelledby="merge-title">
      <h2 id="merge-title">Duplicate record?</h2>
      {!open ? (
        <>
          <p className="dash-hint">
            If this person has a second record (another email, a checkout as a guest), merge this one into it.
          </p>
          <button ref={openerRef} type="button" className="btn btn-outline dash-btn-sm" onClick={() => setOpen(true)}>
            Merge into…
          </button>
        </>
      ) : chosen ? (
        <div
          ref={dialogRef}
          tabIndex={-1}
          className="merge-confirm"
          role="alertdialog"
          aria-labelledby="merge-confirm-title"
          aria-describedby="merge-confirm-text"
        >
          <p id="merge-confirm-title" className="dash-alert-title">
            Merge {nameOf(source)} ({source.email}) into {nameOf(chosen)} ({chosen.email})?
          </p>
          <p id="merge-confirm-text">
            Every gift, Gift Aid declaration, monthly gift, marketing consent and organization link of {source.email}{' '}
            moves to {chosen.email}, and the record {source.email} is deleted. This cannot be undone; the audit log
            keeps both.
          </p>
          {error ? <Alert>{error}</Alert> : null}
          <div className="dash-form-actions">
            <button type="button" className="btn btn-primary dash-btn-sm" disabled={busy} onClick={() => void merge()}>
              {busy ? 'Merging…' : `Merge into ${chosen.email}`}
            </button>
            <button
              type="button"
              className="btn btn-outline dash-btn-sm"
              disabled={busy}
              onClick={() => setChosen(null)}
            >
              Back
            </button>
          </div>
        </div>
      ) : (
        <>
          <div className="dash-field">
            <label htmlFor="merge-search">Email of the record to keep</label>
            <input
              ref={searchRef}
              id="merge-search"
              className="dash-input"
              type="search"
              maxLength={40}
              value={term}
              placeholder="At least 3 characters"
              onChange={(e) => setTerm(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') setSearch(term.trim());
              }}
              onBlur={() => setSearch(term.trim())}
            />
          </div>
          <div className="dash-form-actions">
            <button type="button" className="btn btn-outline dash-btn-sm" onClick={() => setSearch(term.trim())}>
              Search
            </button>
            <button
              type="button"
              className="btn btn-outline dash-btn-sm"
              onClick={() => {
                setOpen(false);
                setTerm('');
                setSearch('');
              }}
            >
              Cancel
            </button>
          </div>
          {found.status === 'error' ? <Alert>{found.error.message}</Alert> : null}
          {found.status === 'ok' && !candidates.length ? (
            <p className="dash-hint">No other donor record matches “{search}”.</p>
          ) : null}
          {candidates.length ? (
            <ul className="merge-results" aria-label="Matching donor records">
              {candidates.map((d) => (
                <li key={d._id}>
                  <button type="button" className="btn btn-outline dash-btn-sm" onClick={() => setChosen(d)}>
                    {nameOf(d)} · {d.email}
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </section>
  );
}
