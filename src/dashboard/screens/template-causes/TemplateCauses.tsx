import { useStore } from '@nanostores/react';
import { useEffect, useId, useMemo, useState } from 'react';
import { STOCK_COVERS, stockCoverLabel, stockCoverThumb } from '../../../../domain/stock-covers';
import { hasEnded } from '../../../../domain/giving-ends';
import { formatShortUkDay } from '../../../../domain/giving-opens';
import { DESCRIPTION_MAX_LENGTH, MAX_CAMPAIGN_TITLE, MAX_TEMPLATE_STORY } from '../../../../domain/limits';
import { api, client, type Data } from '../../../lib/api';
import { FormShell } from '../../forms/form-parts';
import { useCampaignOptions } from '../../forms/use-options';
import { formatDate } from '../../lib/dates';
import { useApiGet } from '../../lib/use-api';
import { goBack, navigate } from '../../router';
import { $dashToken, $dashUser, isAdmin } from '../../session';
import {
  Alert,
  Badge,
  LinkButton,
  NotFound,
  PageHeader,
  SelectInput,
  Spinner,
  TextArea,
  TextInput,
} from '../../ui/primitives';

const causesApi = client.api['template-causes'];
type Cause = Data<typeof causesApi.$get>[number];

export const TEMPLATE_CAUSES_PATH = '/dashboard/template-causes';

/** Every offered cause in /fund-raising's order, then the latest retired ones (admins only). */
function useAllCauses(enabled: boolean) {
  return useApiGet(enabled ? 'template-causes?retired=true' : null, (o) =>
    causesApi.$get({ query: { retired: 'true' } }, o),
  );
}

function AdminsOnly({ title }: { title: string }) {
  return (
    <section className="dash-section">
      <h1>{title}</h1>
      <Alert tone="info">
        Template causes are kept by the platform&rsquo;s admins. To suggest one, use{' '}
        <a href="/dashboard/contact">Contact Support</a>.
      </Alert>
    </section>
  );
}

/**
 * /dashboard/template-causes (decision 074): the starting points fundraisers pick on /fund-raising.
 * A cause is retired rather than deleted, so the appeals started from it still name it.
 */
export function TemplateCauseList() {
  const user = useStore($dashUser);
  const token = useStore($dashToken);
  const allowed = isAdmin(user);
  const [load] = useAllCauses(allowed);
  const raisesFor = useRaisesFor(allowed);
  const [causes, setCauses] = useState<Cause[]>([]);
  const [notice, setNotice] = useState<{ tone: 'info' | 'error'; text: string } | null>(null);
  useEffect(() => {
    if (load.status === 'ok') setCauses(load.data);
  }, [load]);

  if (user === undefined) return <Spinner />;
  if (!allowed) return <AdminsOnly title="Template causes" />;

  async function setRetired(cause: Cause, retired: boolean) {
    setNotice(null);
    const res = await api((o) => causesApi[':id'].$put({ param: { id: cause._id }, json: { retired } }, o), {
      token,
    });
    if (!res.ok) return setNotice({ tone: 'error', text: res.error.message });
    // The answer is the cause alone: its count of appeals stays as listed.
    setCauses((list) =>
      list.map((c) => (c._id === cause._id ? { ...res.data, appeals_started: c.appeals_started } : c)),
    );
    setNotice({
      tone: 'info',
      text: retired
        ? `“${cause.title}” is no longer offered to fundraisers. Appeals already started from it are unchanged.`
        : `“${cause.title}” is offered to fundraisers again.`,
    });
  }

  const offered = causes.filter((c) => !c.retired_at).length;
  return (
    <section className="dash-section">
      <PageHeader
        title="Template causes"
        actions={<LinkButton href={`${TEMPLATE_CAUSES_PATH}/add`}>Add a cause</LinkButton>}
      />
      <p className="dash-muted">
        The causes a fundraiser picks from on <a href="/fund-raising">Start a Fundraise</a>, in this order. In a story,
        [[name]] becomes the fundraiser&rsquo;s full name. A cause tied to a campaign raises for it.
      </p>
      <div aria-live="polite">{notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}</div>
      {load.status === 'error' ? <Alert>{load.error.message}</Alert> : null}
      {load.status === 'loading' || load.status === 'idle' ? <Spinner /> : null}
      {load.status === 'ok' && causes.length === 0 ? (
        <p className="dash-empty">No template causes yet. Fundraisers start from scratch.</p>
      ) : null}
      {causes.length ? (
        <p className="dash-muted">
          {offered} of {causes.length} offered to fundraisers.
        </p>
      ) : null}
      <ul className="dash-support-list" aria-label="Template causes">
        {causes.map((cause) => (
          <li key={cause._id} className="dash-support-item">
            <article aria-labelledby={`cause-${cause._id}`}>
              <div className="dash-support-head">
                <h2 id={`cause-${cause._id}`} className="dash-support-subject">
                  {cause.title}
                </h2>
                {cause.retired_at ? (
                  <Badge tone="muted">Retired {formatDate(cause.retired_at)}</Badge>
                ) : (
                  <Badge tone="ok">Offered</Badge>
                )}
              </div>
              <p className="dash-support-body">{cause.description}</p>
              <p className="dash-muted">
                Raises for: {raisesFor(cause.campaign_id)}
                <br />
                {appealsStartedLine(cause.appeals_started ?? 0)}
              </p>
              <div className="dash-support-actions">
                <LinkButton href={`${TEMPLATE_CAUSES_PATH}/edit/${cause._id}`} outline small>
                  Edit<span className="visually-hidden"> {cause.title}</span>
                </LinkButton>
                <button
                  type="button"
                  className="btn btn-outline dash-btn-sm"
                  onClick={() => void setRetired(cause, !cause.retired_at)}
                >
                  {cause.retired_at ? 'Offer again' : 'Retire'}
                  <span className="visually-hidden"> {cause.title}</span>
                </button>
              </div>
            </article>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** How much a cause is used, for deciding what to retire: "No appeals started from it yet", "3 appeals started from it". */
export const appealsStartedLine = (appeals: number) =>
  appeals === 0
    ? 'No appeals started from it yet'
    : `${appeals.toLocaleString('en-GB')} ${appeals === 1 ? 'appeal' : 'appeals'} started from it`;

type CampaignDays = { _id: string; title: string; date: { to: string | null } };

/**
 * What a cause's campaign line says. The editor chooses a tied campaign only while it is on the site
 * and takes appeals (decision 073), so a cause whose campaign ended or left the site says so: its
 * fundraisers choose for themselves until it is tied to another. `campaigns`: those on the site.
 */
export function raisesForLine(campaignId: string | null, campaigns: readonly CampaignDays[], now = new Date()): string {
  if (!campaignId) return 'the campaign the fundraiser chooses';
  const campaign = campaigns.find((c) => c._id === campaignId);
  if (!campaign) return 'a campaign not on the site, so the fundraiser chooses';
  if (hasEnded(campaign.date.to, now))
    return `${campaign.title} (ended ${formatShortUkDay(campaign.date.to as string)}), so the fundraiser chooses`;
  return campaign.title;
}

function useRaisesFor(enabled: boolean): (campaignId: string | null) => string {
  const [load] = useApiGet(enabled ? 'campaigns?tiny=true' : null, (o) =>
    client.api.campaigns.$get({ query: { tiny: 'true' } }, o),
  );
  return useMemo(() => (campaignId) => (load.status === 'ok' ? raisesForLine(campaignId, load.data) : '…'), [load]);
}

type Values = { title: string; description: string; story: string; campaign_id: string; image: string };
const EMPTY: Values = { title: '', description: '', story: '', campaign_id: '', image: '' };

/**
 * The cover an appeal from this cause starts with: one of the site's stock covers, or none. A
 * radio group of thumbnails, each named by what it shows.
 */
function CoverChoice({ value, onChange }: { value: string; onChange: (key: string) => void }) {
  const name = useId();
  return (
    <fieldset className="dash-fieldset" aria-describedby={`${name}-hint`}>
      <legend>Cover image</legend>
      <p className="dash-hint" id={`${name}-hint`}>
        An appeal started from this cause begins with it; the fundraiser can add their own pictures or remove it.
      </p>
      <div className="dash-cover-options">
        {['', ...STOCK_COVERS].map((key) => (
          <label key={key || 'none'} className="dash-cover-option">
            <input type="radio" name={name} value={key} checked={value === key} onChange={() => onChange(key)} />
            {key ? (
              <img src={stockCoverThumb(key)} alt="" width="72" height="72" loading="lazy" />
            ) : (
              <span className="dash-cover-none" aria-hidden="true" />
            )}
            <span>{key ? stockCoverLabel(key) : 'None'}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** /dashboard/template-causes/add and /edit/{id}. */
export function TemplateCauseForm({ id }: { id?: string }) {
  const user = useStore($dashUser);
  const token = useStore($dashToken);
  const allowed = isAdmin(user);
  const [load] = useApiGet(allowed && id ? `template-causes/${id}` : null, (o) =>
    causesApi[':id'].$get({ param: { id: id as string } }, o),
  );
  const campaigns = useCampaignOptions(allowed);
  const [values, setValues] = useState<Values>(EMPTY);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = id && load.status === 'ok' ? load.data : undefined;
  useEffect(() => {
    if (current)
      setValues({
        title: current.title,
        description: current.description,
        story: current.story,
        campaign_id: current.campaign_id ?? '',
        image: current.image ?? '',
      });
  }, [current]);

  const title = id ? 'Edit template cause' : 'Add template cause';
  if (user === undefined) return <Spinner />;
  if (!allowed) return <AdminsOnly title={title} />;
  if (id && (load.status === 'loading' || load.status === 'idle')) return <Spinner />;
  if (id && load.status === 'error' && load.error.statusCode !== 404) return <Alert>{load.error.message}</Alert>;
  if (id && !current)
    return (
      <NotFound
        title="Template Cause Not Found"
        back="/dashboard/template-causes"
        backLabel="Back to Template Causes"
      />
    );

  const set = (key: keyof Values) => (value: string) => setValues((v) => ({ ...v, [key]: value }));
  const missing = [
    !values.title.trim() && 'a title',
    !values.description.trim() && 'a description',
    !values.story.trim() && 'a story',
  ].filter((m): m is string => Boolean(m));
  // A campaign the select does not offer (a draft, or taken down) stays chosen, said as such.
  const campaignOptions =
    values.campaign_id && !campaigns.some((c) => c.value === values.campaign_id)
      ? [...campaigns, { value: values.campaign_id, label: 'Its campaign (not on the site)' }]
      : campaigns;

  const save = async () => {
    setSaving(true);
    setError(null);
    // The cover is sent only when chosen here: a cause kept from before with another image keeps it.
    const { image: chosen, ...words } = values;
    const image = chosen || null;
    const unchanged = current !== undefined && image === (current.image ?? null);
    const json = { ...words, campaign_id: values.campaign_id || null, ...(unchanged ? {} : { image }) };
    const res = id
      ? await api((o) => causesApi[':id'].$put({ param: { id }, json }, o), { token })
      : await api((o) => causesApi.$post({ json }, o), { token });
    setSaving(false);
    if (!res.ok) return setError(res.error.message);
    navigate(TEMPLATE_CAUSES_PATH);
  };

  return (
    <FormShell
      title={title}
      onSubmit={() => void save()}
      canSave={missing.length === 0}
      saving={saving}
      error={error}
      onCancel={() => goBack(TEMPLATE_CAUSES_PATH)}
      waitingFor={missing}
    >
      <TextInput label="Title" required value={values.title} onChange={set('title')} maxLength={MAX_CAMPAIGN_TITLE} />
      <TextArea
        label="Description"
        required
        rows={2}
        value={values.description}
        onChange={set('description')}
        maxLength={DESCRIPTION_MAX_LENGTH}
        hint={`Shown on the cause's card; at most ${DESCRIPTION_MAX_LENGTH} characters.`}
      />
      <TextArea
        label="Story"
        required
        rows={8}
        value={values.story}
        onChange={set('story')}
        maxLength={MAX_TEMPLATE_STORY}
        hint="Write [[name]] where the fundraiser's full name goes. They can change every word."
      />
      <SelectInput
        label="Raises for"
        value={values.campaign_id}
        onChange={set('campaign_id')}
        options={campaignOptions}
        placeholder="None: the fundraiser chooses"
      />
      <CoverChoice value={values.image} onChange={set('image')} />
    </FormShell>
  );
}
