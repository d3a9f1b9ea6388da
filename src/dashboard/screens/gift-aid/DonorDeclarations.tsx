import { useStore } from '@nanostores/react';
import { useMemo, useState } from 'react';
import { isIsoDay } from '../../../../domain/dates';
import { api, type ApiResult, client } from '../../../lib/api';
import { formatDate } from '../../lib/dates';
import { useApiGet } from '../../lib/use-api';
import { administers, administersAny } from '../../../../domain/roles';
import { $dashToken, $dashUser, viewerOf } from '../../session';
import { EMPTY_GIFT_AID } from '../../../components/donation/GiftAidFields';
import { Alert, Badge, Checkbox, OrganizationSelect, SelectInput, TextInput } from '../../ui/primitives';

const giftAid = client.api['gift-aid'];

const EMPTY = {
  method: 'paper',
  organization_id: '',
  ...EMPTY_GIFT_AID,
  declared_on: '',
  covers_past: true,
  covers_future: true,
  overseas: false,
};

/** A donor's Gift Aid declarations on their page: every version, "Add declaration" (paper or oral), "Cancel", and an oral one's written confirmation. */
export function DonorDeclarations({ donorId }: { donorId: string }) {
  const token = useStore($dashToken);
  // Recording and cancelling are for the organization's admins; finance users read (the API's rule).
  const viewer = viewerOf(useStore($dashUser));
  const [postedOn, setPostedOn] = useState<Record<string, string>>({});
  const [load, reload] = useApiGet(giftAid.declarations.$path({ query: { donor_id: donorId } }), (o) =>
    giftAid.declarations.$get({ query: { donor_id: donorId } }, o),
  );
  const [orgsLoad] = useApiGet('/api/organizations?limit=100', (o) =>
    client.api.organizations.$get({ query: { limit: 100 } }, o),
  );
  const orgs = useMemo(() => (orgsLoad.status === 'ok' ? orgsLoad.data : []), [orgsLoad]);
  const [adding, setAdding] = useState(false);
  const [form, setForm] = useState(EMPTY);
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const set = (key: keyof typeof EMPTY) => (value: string | boolean) => setForm((f) => ({ ...f, [key]: value }));
  const orgName = (id: string | null) =>
    orgs.find((o) => o._id === id)?.name ?? (id ? 'another organization' : 'the platform');

  async function add() {
    setNotice(null);
    if (!isIsoDay(form.declared_on))
      return setNotice({ tone: 'error', text: 'declared_on: enter the day the donor made it' });
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
    setNotice({
      tone: 'success',
      text:
        res.data.method === 'oral'
          ? 'Oral declaration recorded: send its written confirmation before claiming.'
          : 'Paper declaration recorded.',
    });
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
        {administersAny(viewer) ? (
          <button type="button" className="btn btn-outline" aria-expanded={adding} onClick={() => setAdding(!adding)}>
            Add declaration
          </button>
        ) : null}
      </div>
      <p className="dash-hint">
        Every version is kept. A paper declaration counts from the day it was made; an oral one only once a written
        confirmation has been sent to the donor (by email from here, or by post: record the day it went), and the donor
        may cancel it within 30 days of that confirmation.
      </p>
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
            <SelectInput
              label="Made"
              value={form.method}
              onChange={set('method')}
              options={[
                { label: 'On paper (signed form)', value: 'paper' },
                { label: 'Orally (phone or in person)', value: 'oral' },
              ]}
            />
            <OrganizationSelect
              label="To"
              organizations={orgs}
              value={form.organization_id || orgs[0]?._id || ''}
              onChange={set('organization_id')}
            />
            <TextInput label="Title" value={form.title} onChange={set('title')} />
            <TextInput label="First name" value={form.first_name} onChange={set('first_name')} required />
            <TextInput label="Last name" value={form.last_name} onChange={set('last_name')} required />
            <TextInput label="House name or number" value={form.house} onChange={set('house')} required />
            <TextInput label="Rest of the address" value={form.address} onChange={set('address')} />
            <TextInput
              label="Postcode"
              value={form.postcode}
              onChange={set('postcode')}
              required={!form.overseas}
              hint={form.overseas ? 'Leave empty: the schedule shows X' : undefined}
            />
            <TextInput label="Made on" type="date" value={form.declared_on} onChange={set('declared_on')} required />
          </div>
          <Checkbox label="Covers gifts in the past 4 years" checked={form.covers_past} onChange={set('covers_past')} />
          <Checkbox label="Covers future gifts" checked={form.covers_future} onChange={set('covers_future')} />
          <Checkbox label="Lives outside the UK" checked={form.overseas} onChange={set('overseas')} />
          {form.method === 'oral' ? (
            <p className="dash-hint">
              An oral declaration is saved as awaiting written confirmation: its gifts are not eligible until the
              confirmation is sent.
            </p>
          ) : null}
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
                  {d.method === 'online' ? 'Online' : d.method === 'oral' ? 'Oral' : 'Paper'} declaration to{' '}
                  {orgName(d.organization_id)}
                </strong>{' '}
                <span className="dash-hint">version {d.version}</span>{' '}
                {d.cancelled_at ? (
                  <Badge tone="muted">cancelled {formatDate(d.cancelled_at)}</Badge>
                ) : d.replaced_by ? (
                  <Badge tone="muted">replaced</Badge>
                ) : d.effective ? (
                  <Badge tone="ok">in force</Badge>
                ) : (
                  <Badge tone="warn">awaiting written confirmation</Badge>
                )}
              </div>
              <dl className="donor-declaration-facts">
                <div>
                  <dt>Made on</dt>
                  <dd>{formatDate(d.declared_at)}</dd>
                </div>
                <div>
                  <dt>Covers</dt>
                  <dd>
                    {[d.covers_past && 'gifts in the 4 years before', d.covers_future && 'future gifts']
                      .filter(Boolean)
                      .join(' and ') || 'the gift it was made with'}
                  </dd>
                </div>
                <div>
                  <dt>Donor</dt>
                  <dd>
                    {[d.title, d.first_name, d.last_name].filter(Boolean).join(' ')},{' '}
                    {[d.house, d.address].filter(Boolean).join(', ')}{' '}
                    {d.overseas ? '(lives abroad: postcode X)' : d.postcode}
                  </dd>
                </div>
                {d.method === 'oral' ? (
                  <div>
                    <dt>Written confirmation</dt>
                    <dd>
                      {d.confirmation_sent_at
                        ? `sent ${formatDate(d.confirmation_sent_at)}`
                        : 'not sent yet: its gifts are not eligible'}
                    </dd>
                  </div>
                ) : null}
                {d.cancelled_at ? (
                  <div>
                    <dt>Cancelled on</dt>
                    <dd>{formatDate(d.cancelled_at)}</dd>
                  </div>
                ) : null}
              </dl>
              <details>
                <summary>Wording</summary>
                <p>{d.declaration}</p>
              </details>
              {!d.cancelled_at && !d.replaced_by && administers(viewer, d.organization_id) ? (
                <div className="donor-declaration-actions">
                  {d.method === 'oral' && !d.confirmation_sent_at ? (
                    <>
                      <button
                        type="button"
                        className="btn btn-primary"
                        onClick={() =>
                          act(
                            () =>
                              api(
                                (o) =>
                                  giftAid.declarations[':id'].confirmation.$post({ param: { id: d._id }, json: {} }, o),
                                { token },
                              ),
                            'Written confirmation sent by email: its gifts are eligible from today.',
                          )
                        }
                      >
                        Send written confirmation
                      </button>
                      <span className="donor-declaration-post">
                        <TextInput
                          label="Or posted on"
                          type="date"
                          value={postedOn[d._id] ?? ''}
                          onChange={(v) => setPostedOn((p) => ({ ...p, [d._id]: v }))}
                        />
                        <button
                          type="button"
                          className="btn btn-outline"
                          onClick={() => {
                            const day = postedOn[d._id] ?? '';
                            if (!isIsoDay(day))
                              return setNotice({
                                tone: 'error',
                                text: 'Enter the day the written confirmation was posted.',
                              });
                            void act(
                              () =>
                                api(
                                  (o) =>
                                    giftAid.declarations[':id'].confirmation.$post(
                                      { param: { id: d._id }, json: { send_email: false, sent_on: day } },
                                      o,
                                    ),
                                  { token },
                                ),
                              `Postal confirmation recorded: its gifts are eligible from ${formatDate(day)}.`,
                            );
                          }}
                        >
                          Record postal confirmation
                        </button>
                      </span>
                    </>
                  ) : null}
                  <button
                    type="button"
                    className="btn btn-ghost"
                    onClick={() => {
                      const message =
                        d.method === 'oral' && d.confirmation_sent_at
                          ? 'Cancel this declaration? Within 30 days of its written confirmation it is void from the day it was made.'
                          : 'Cancel this declaration? Gifts from today will not be eligible.';
                      if (window.confirm(message))
                        void act(
                          () =>
                            api((o) => giftAid.declarations[':id'].cancel.$post({ param: { id: d._id } }, o), {
                              token,
                            }),
                          'Declaration cancelled.',
                        );
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
