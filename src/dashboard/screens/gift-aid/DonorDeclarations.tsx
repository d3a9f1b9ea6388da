import { useStore } from '@nanostores/react';
import { useMemo, useState } from 'react';
import { isIsoDay } from '../../../../domain/dates';
import { api, type ApiResult, client } from '../../../lib/api';
import { formatDate } from '../../lib/dates';
import { useApiGet } from '../../lib/use-api';
import { $dashToken } from '../../session';
import { Alert, Badge, SelectInput, TextInput } from '../../ui/primitives';

const giftAid = client.api['gift-aid'];

const EMPTY = { method: 'paper', organization_id: '', title: '', first_name: '', last_name: '', house: '', address: '', postcode: '', declared_on: '', covers_past: true, covers_future: true, overseas: false };

/** A donor's Gift Aid declarations on their page: every version, "Add declaration" (paper or oral), "Cancel", and an oral one's written confirmation. */
export function DonorDeclarations({ donorId }: { donorId: string }) {
  const token = useStore($dashToken);
  const [load, reload] = useApiGet(giftAid.declarations.$path({ query: { donor_id: donorId } }), (o) => giftAid.declarations.$get({ query: { donor_id: donorId } }, o));
  const [orgsLoad] = useApiGet('/api/organizations?limit=100', (o) => client.api.organizations.$get({ query: { limit: 100 } }, o));
  const orgs = useMemo(() => (orgsLoad.status === 'ok' ? orgsLoad.data : []), [orgsLoad]);
  const [adding, setAdding] = useState(false);
  const [form, setForm] = useState(EMPTY);
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const set = (key: keyof typeof EMPTY) => (value: string | boolean) => setForm((f) => ({ ...f, [key]: value }));
  const orgName = (id: string | null) => orgs.find((o) => o._id === id)?.name ?? (id ? 'another organization' : 'the platform');

  async function add() {
    setNotice(null);
    if (!isIsoDay(form.declared_on)) return setNotice({ tone: 'error', text: 'declared_on: enter the day the donor made it' });
    const organizationId = form.organization_id || orgs[0]?._id || '';
    const res = await api(
      (o) =>
        giftAid.declarations.$post(
          {
            json: {
              donor_id: donorId,
              organization_id: organizationId,
              method: form.method === 'oral' ? 'oral' : 'paper',
              title: form.title || null,
              first_name: form.first_name,
              last_name: form.last_name,
              house: form.house,
              address: form.address || null,
              postcode: form.postcode,
              declared_on: form.declared_on,
              covers_past: form.covers_past,
              covers_future: form.covers_future,
              overseas: form.overseas,
            },
          },
          o,
        ),
      { token },
    );
    if (!res.ok) return setNotice({ tone: 'error', text: res.error.message });
    setNotice({ tone: 'success', text: res.data.method === 'oral' ? 'Oral declaration recorded: send its written confirmation before claiming.' : 'Paper declaration recorded.' });
    setAdding(false);
    setForm(EMPTY);
    reload();
  }
  async function act(run: () => Promise<ApiResult<unknown>>, done: string) {
    setNotice(null);
    const res = await run();
    if (!res.ok) setNotice({ tone: 'error', text: res.error.message });
    else setNotice({ tone: 'success', text: done });
    reload();
  }

  if (load.status === 'error' && load.error.statusCode === 403) return null;
  const rows = load.status === 'ok' ? load.data : [];
  return (
    <section className="dash-section donor-declarations" aria-label="Gift Aid declarations">
      <div className="donor-declarations-head">
        <h2 className="dash-h2">Gift Aid declarations</h2>
        <button type="button" className="btn btn-outline" aria-expanded={adding} onClick={() => setAdding(!adding)}>
          Add declaration
        </button>
      </div>
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      {load.status === 'error' ? <Alert>{load.error.message}</Alert> : null}
      {adding ? (
        <form
          className="dash-form donor-declaration-form"
          onSubmit={(ev) => {
            ev.preventDefault();
            void add();
          }}
        >
          <div className="dash-grid-2">
            <SelectInput label="Made" value={form.method} onChange={set('method')} options={[{ label: 'On paper (signed form)', value: 'paper' }, { label: 'Orally (phone or in person)', value: 'oral' }]} />
            <SelectInput label="To" value={form.organization_id || orgs[0]?._id || ''} onChange={set('organization_id')} options={orgs.map((o) => ({ label: o.name, value: o._id }))} />
            <TextInput label="Title" value={form.title} onChange={set('title')} />
            <TextInput label="First name" value={form.first_name} onChange={set('first_name')} required />
            <TextInput label="Last name" value={form.last_name} onChange={set('last_name')} required />
            <TextInput label="House name or number" value={form.house} onChange={set('house')} required />
            <TextInput label="Rest of the address" value={form.address} onChange={set('address')} />
            <TextInput label="Postcode" value={form.postcode} onChange={set('postcode')} required={!form.overseas} hint={form.overseas ? 'Leave empty: the schedule shows X' : undefined} />
            <TextInput label="Made on" type="date" value={form.declared_on} onChange={set('declared_on')} required />
          </div>
          <label className="dash-check">
            <input type="checkbox" checked={form.covers_past} onChange={(ev) => set('covers_past')(ev.target.checked)} /> Covers gifts in the past 4 years
          </label>
          <label className="dash-check">
            <input type="checkbox" checked={form.covers_future} onChange={(ev) => set('covers_future')(ev.target.checked)} /> Covers future gifts
          </label>
          <label className="dash-check">
            <input type="checkbox" checked={form.overseas} onChange={(ev) => set('overseas')(ev.target.checked)} /> Lives outside the UK
          </label>
          <div className="dash-form-actions">
            <button type="submit" className="btn btn-primary">
              Save declaration
            </button>
          </div>
        </form>
      ) : null}
      {rows.length ? (
        <ul className="donor-declaration-list">
          {rows.map((d) => (
            <li key={d._id} className="donor-declaration" data-declaration={d._id}>
              <div className="donor-declaration-line">
                <strong>
                  {d.method === 'online' ? 'Online' : d.method === 'oral' ? 'Oral' : 'Paper'} declaration to {orgName(d.organization_id)}
                </strong>{' '}
                <span className="dash-hint">version {d.version}</span>{' '}
                {d.cancelled_at ? <Badge tone="muted">cancelled {formatDate(d.cancelled_at)}</Badge> : d.replaced_by ? <Badge tone="muted">replaced</Badge> : d.effective ? <Badge tone="ok">in force</Badge> : <Badge tone="warn">awaiting written confirmation</Badge>}
              </div>
              <div className="dash-hint">
                Made on {formatDate(d.declared_at)}; covers {[d.covers_past && 'the past 4 years', d.covers_future && 'future gifts'].filter(Boolean).join(' and ') || 'the gift it was made with'}.{' '}
                {[d.title, d.first_name, d.last_name].filter(Boolean).join(' ')}, {[d.house, d.address].filter(Boolean).join(', ')} {d.overseas ? '(abroad)' : d.postcode}
                {d.confirmation_sent_at ? `. Written confirmation sent ${formatDate(d.confirmation_sent_at)}` : ''}
              </div>
              <details>
                <summary>Wording</summary>
                <p>{d.declaration}</p>
              </details>
              {!d.cancelled_at && !d.replaced_by ? (
                <div className="donor-declaration-actions">
                  {d.method === 'oral' && !d.confirmation_sent_at ? (
                    <button type="button" className="btn btn-outline" onClick={() => act(() => api((o) => giftAid.declarations[':id'].confirmation.$post({ param: { id: d._id }, json: {} }, o), { token }), 'Written confirmation sent by email.')}>
                      Email written confirmation
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="btn btn-ghost"
                    onClick={() => {
                      if (window.confirm('Cancel this declaration? Gifts after today will not be eligible.')) void act(() => api((o) => giftAid.declarations[':id'].cancel.$post({ param: { id: d._id } }, o), { token }), 'Declaration cancelled.');
                    }}
                  >
                    Cancel
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : load.status === 'ok' ? (
        <p className="dash-empty">No Gift Aid declaration on record.</p>
      ) : null}
    </section>
  );
}
