import { useStore } from '@nanostores/react';
import { type ChangeEvent, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { NOMINAL_CODE_MAX_LENGTH, ORGANIZATION_NOMINAL_CODES } from '../../../domain/finance';
import { setsAnyNominalCodes } from '../../../domain/roles';
import { api, client } from '../../lib/api';
import { $authRestoring, $loginOpen, $user, initAuth, openLogin } from '../../stores/auth';
import {
  applyTemplate,
  templateCampaign,
  campaignChoices,
  campaignFromQuery,
  type CampaignOption,
  endDateNote,
  endedCampaignNote,
  type EditorForm,
  type EditorKind,
  emptyForm,
  fillName,
  formFromDto,
  formProblems,
  fullName,
  dateOrderProblem,
  startDateNote,
  statusChangeNote,
  startsAfterCampaignProblem,
  goalProblem,
  isReady,
  listInWords,
  missingForReady,
  MAX_DESCRIPTION,
  MAX_TITLE,
  redirectTarget,
  STATUSES,
  type TemplateCause,
  toPayload,
} from './editor-model';
import { EditorField, EditorSelect } from './EditorField';
import ImagesField from './ImagesField';
import PreviewCard from './PreviewCard';
import TemplatePicker from './TemplatePicker';
import '../../styles/editor.css';

export type CampaignEditorProps = {
  kind: EditorKind;
  /** Edit mode: the item's UUID or short id. */
  id?: string;
  /** Where to go after a save; "{id}" is replaced by the saved item's short id. */
  redirectTo?: string;
  /** The page heading; defaults to 'Add Appeal', 'Edit Campaign', … */
  title?: string;
  /** Cancel; without it, back to the page before (on this site) or else the list of its kind. */
  onCancel?: () => void;
  /** A new appeal's template causes, read while the page was rendered (/fund-raising); else fetched. */
  causes?: TemplateCause[];
};

type Option = { _id: string; title: string };
/** The form's fields that hold typed text (the others are images, choices and switches). */
type TextField = {
  [K in keyof EditorForm]: string extends EditorForm[K] ? (EditorForm[K] extends string ? K : never) : never;
}[keyof EditorForm];
type Load =
  | { state: 'loading' }
  | { state: 'ready' }
  | { state: 'missing'; message: string }
  | { state: 'refused'; message: string };

const toChoice = (option: Option) => ({ value: option._id, label: option.title });
const STATUS_CHOICES = STATUSES.map((status) => ({ value: status, label: status[0].toUpperCase() + status.slice(1) }));

const label = (kind: EditorKind) => (kind === 'campaign' ? 'Campaign' : 'Appeal');

/**
 * Cancel: back where the person came from on this site; opened from elsewhere (a link in an email,
 * a bookmark) back would leave the site or go nowhere, so the list of its kind.
 */
function leave(kind: EditorKind) {
  if (document.referrer.startsWith(`${window.location.origin}/`)) window.history.back();
  else window.location.assign(kind === 'campaign' ? '/dashboard/active-campaigns' : '/dashboard/active-appeals');
}

/** Create or edit a campaign or an appeal (spec section 2 "Campaign/appeal editor"). */
export default function CampaignEditor({ kind, id, redirectTo, title, onCancel, causes }: CampaignEditorProps) {
  const user = useStore($user);
  const restoring = useStore($authRestoring);
  const loginOpen = useStore($loginOpen);
  const [step, setStep] = useState<'template' | 'form'>(kind === 'appeal' && !id ? 'template' : 'form');
  const [form, setForm] = useState<EditorForm>(() => emptyForm());
  const [load, setLoad] = useState<Load>(id ? { state: 'loading' } : { state: 'ready' });
  const [campaignOptions, setCampaignOptions] = useState<CampaignOption[]>([]);
  const [pickedCause, setPickedCause] = useState<TemplateCause | null>(null);
  // Why the campaign a new appeal's link named is not chosen (it has ended), or null.
  const [endedFromLink, setEndedFromLink] = useState<string | null>(null);
  const [orgOptions, setOrgOptions] = useState<Option[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [pendingSubmit, setPendingSubmit] = useState(false);
  // Saving the Deleted status takes the item off the site: asked once more, in line.
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const savedStatus = useRef<EditorForm['status'] | null>(null);
  // Edit mode: what the item has raised and who started it, for the preview (not fields of the form).
  const [saved, setSaved] = useState<{ raised: number; creator: string } | null>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const confirmRef = useRef<HTMLDivElement>(null);
  const ids = {
    title: useId(),
    description: useId(),
    counter: useId(),
    story: useId(),
    storyHint: useId(),
    video: useId(),
    videoHint: useId(),
  };
  const more = {
    from: useId(),
    to: useId(),
    goal: useId(),
    campaign: useId(),
    org: useId(),
    status: useId(),
    statusNote: useId(),
    sponsored: useId(),
    sponsoredHint: useId(),
    incomeCode: useId(),
    incomeCodeHint: useId(),
    deleteQuestion: useId(),
    missing: useId(),
  };

  const name = fullName(user?.name);
  const canSetStatus = Boolean(user?.type.includes('admin'));
  // The fund's income code: staff and finance; on an item the API answers it only to those who may set it.
  const setsCodes = setsAnyNominalCodes(user ? { type: user.type, orgIds: user.org_ids } : null);
  // The chosen campaign's giving days (none for the general fund or before the list arrives).
  const campaignDays = campaignOptions.find((c) => c._id === form.campaignId)?.date;
  // Approved campaigns still taking appeals, and the one this appeal is under (decisions 066, 068).
  const campaignSelect = campaignChoices(campaignOptions, form.campaignId);
  const ready = isReady(form, kind, campaignDays);
  const missing = missingForReady(form, kind, campaignDays);
  const datesProblem = dateOrderProblem(form.dateFrom, form.dateTo);
  const startProblem = startsAfterCampaignProblem(form.dateFrom, kind, campaignDays);
  const startNote = startProblem ? null : startDateNote(form.dateFrom, kind, new Date(), campaignDays);
  const startSaid = startProblem ? `${more.from}-error` : startNote ? `${more.from}-note` : undefined;
  const endNote = datesProblem ? null : endDateNote(form.dateTo, kind, new Date(), campaignDays);
  const endSaid = datesProblem ? `${more.to}-error` : endNote ? `${more.to}-note` : undefined;
  const statusNote = statusChangeNote(kind, savedStatus.current, form.status);
  const heading = title ?? `${id ? 'Edit' : 'Add'} ${label(kind)}`;

  useEffect(() => {
    void initAuth();
  }, []);

  // Edit mode: load the item once we know who is asking (drafts need the token).
  const loaded = useRef(false);
  useEffect(() => {
    if (!id || restoring || loaded.current) return;
    let cancelled = false;
    void api((o) => client.api.campaigns[':id'].$get({ param: { id } }, o)).then((result) => {
      if (cancelled) return;
      if (!result.ok) setLoad({ state: 'missing', message: result.error.message });
      else if (result.data.can_edit === false) {
        // Refused here, not on Continue: the server would refuse the save (can_edit is its rule).
        const who =
          result.data.kind === 'appeal'
            ? 'the fundraiser who started it, admins of its organization and platform admins'
            : 'admins of its organization and platform admins';
        setLoad({ state: 'refused', message: `You cannot edit "${result.data.title}": only ${who} can.` });
      } else {
        loaded.current = true;
        const loadedForm = formFromDto(result.data);
        savedStatus.current = loadedForm.status;
        setSaved({ raised: result.data.summary.total_donations, creator: fullName(result.data.created_by) });
        setForm(loadedForm);
        setLoad({ state: 'ready' });
      }
    });
    return () => {
      cancelled = true;
    };
  }, [id, restoring, user?._id]);

  useEffect(() => {
    if (kind !== 'appeal') return;
    void api((o) => client.api.campaigns.$get({ query: { tiny: 'true' } }, o)).then((result) => {
      if (!result.ok) return;
      const options = result.data.map((c) => ({ _id: c._id, title: c.title, date: c.date }));
      setCampaignOptions(options);
      // A new appeal started from a campaign's page is for that campaign (its link says which),
      // unless it has ended: then the select says why it is not chosen (decision 068).
      const ended = id ? null : endedCampaignNote(window.location.search, options);
      const fromLink = id || ended ? '' : campaignFromQuery(window.location.search, options);
      setEndedFromLink(ended);
      if (fromLink) setForm((f) => (f.campaignId ? f : { ...f, campaignId: fromLink }));
    });
  }, [kind, id]);

  // Campaigns: the user's organizations (org_ids), otherwise every organization (spec section 6).
  useEffect(() => {
    if (kind !== 'campaign' || !user) return;
    void api((o) => client.api.organizations.$get({ query: { limit: 100 } }, o)).then((result) => {
      const own = new Set(user.org_ids);
      if (!result.ok) {
        setOrgOptions(user.org_ids.map((orgId) => ({ _id: orgId, title: orgId })));
        return;
      }
      const all = result.data.map((org) => ({ _id: org._id, title: org.name }));
      setOrgOptions(own.size ? all.filter((org) => own.has(org._id)) : all);
    });
  }, [kind, user]);

  // A single organization is chosen for the user.
  useEffect(() => {
    if (orgOptions?.length === 1 && !form.organizationId) setForm((f) => ({ ...f, organizationId: orgOptions[0]._id }));
  }, [orgOptions, form.organizationId]);

  // A cause picked before the campaigns had loaded chooses its campaign once they have (decision 073).
  useEffect(() => {
    if (!pickedCause) return;
    const campaign = templateCampaign(pickedCause, campaignOptions);
    if (campaign) setForm((f) => (f.campaignId ? f : { ...f, campaignId: campaign }));
  }, [pickedCause, campaignOptions]);

  // The name is known only after sign-in: fill the template's [[name]] then.
  useEffect(() => {
    if (name && form.story.includes('[[name]]')) setForm((f) => ({ ...f, story: fillName(f.story, name) }));
  }, [name, form.story]);

  // 'Login & Continue': carry on with the save once the dialog has signed the user in.
  useEffect(() => {
    if (pendingSubmit && user) {
      setPendingSubmit(false);
      void save();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pendingSubmit, user]);

  // The dialog was closed without signing in: don't save later by surprise.
  useEffect(() => {
    if (pendingSubmit && !loginOpen && !user) setPendingSubmit(false);
  }, [pendingSubmit, loginOpen, user]);

  const update = <K extends keyof EditorForm>(key: K, value: EditorForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  /** `value` and `onChange` of a control that edits one text field; `clean` keeps what may be typed. */
  const fieldProps = (key: TextField, clean = (typed: string) => typed) => ({
    value: form[key],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => update(key, clean(e.target.value)),
  });

  function showError(message: string) {
    setError(message);
    requestAnimationFrame(() => errorRef.current?.focus());
  }

  async function save() {
    const problems = formProblems(form);
    if (problems.length) return showError(problems.join(' '));
    setSaving(true);
    setError(null);
    const payload = toPayload(form, kind, { canSetStatus, name, setsCodes: setsCodes && kind === 'campaign' });
    const result = id
      ? await api((o) => client.api.campaigns[':id'].$put({ param: { id }, json: payload }, o))
      : await api((o) => client.api.campaigns.$post({ json: payload }, o));
    if (!result.ok) {
      setSaving(false);
      return showError(result.error.message);
    }
    window.location.assign(redirectTarget(kind, redirectTo, result.data.short_id, result.data.status));
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!ready || saving) return;
    if (form.status === 'deleted' && savedStatus.current !== 'deleted' && !confirmingDelete) {
      setConfirmingDelete(true);
      requestAnimationFrame(() => confirmRef.current?.focus());
      return;
    }
    if (!user) {
      setPendingSubmit(true);
      openLogin();
      return;
    }
    void save();
  }

  function pickCause(cause: TemplateCause | null) {
    if (cause) setForm((f) => applyTemplate(f, cause, name, campaignOptions));
    setPickedCause(cause);
    setStep('form');
  }

  if (load.state === 'loading') {
    return (
      <div className="editor" aria-busy="true">
        <h1>{heading}</h1>
        <p role="status">Loading...</p>
      </div>
    );
  }
  if (load.state === 'refused') {
    return (
      <div className="editor">
        <h1>Edit {label(kind)}</h1>
        <p role="alert">{load.message}</p>
        <p>
          <a href={kind === 'campaign' ? '/dashboard/active-campaigns' : '/dashboard/active-appeals'}>
            Back to the list
          </a>
        </p>
      </div>
    );
  }
  if (load.state === 'missing') {
    return (
      <div className="editor">
        <h1>{label(kind)} Not Found</h1>
        {/* The API names every missing item a campaign (an unknown id has no kind): say it as asked. */}
        <p role="alert">{load.message.replace(/^Campaign not found/, `${label(kind)} not found`)}</p>
        <p>
          <a href={kind === 'campaign' ? '/dashboard/active-campaigns' : '/dashboard/active-appeals'}>
            Back to the list
          </a>
        </p>
      </div>
    );
  }

  if (step === 'template') {
    return (
      <div className="editor">
        <h1>{heading}</h1>
        <TemplatePicker onPick={pickCause} rendered={causes} />
      </div>
    );
  }

  const descriptionLeft = MAX_DESCRIPTION - form.description.length;
  const submitLabel = saving ? 'Saving…' : user || restoring ? 'Continue' : 'Login & Continue';

  return (
    <div className="editor">
      <h1>{heading}</h1>
      <div className="editor-layout">
        <form className="editor-form" onSubmit={onSubmit} noValidate aria-describedby="editor-required-note">
          <p id="editor-required-note" className="editor-hint">
            Fields marked <span aria-hidden="true">*</span>
            <span className="visually-hidden">with an asterisk</span> are required.
            {kind === 'appeal' && !id && (
              <>
                {' '}
                <button type="button" className="editor-link-button" onClick={() => setStep('template')}>
                  Choose a different cause
                </button>
              </>
            )}
          </p>

          <EditorField id={ids.title} label="Title" required>
            <input
              id={ids.title}
              maxLength={MAX_TITLE}
              required
              aria-required="true"
              {...fieldProps('title', (typed) => typed.slice(0, MAX_TITLE))}
            />
          </EditorField>

          <EditorField
            id={ids.description}
            label="Description"
            required
            hint={
              <p id={ids.counter} className={`editor-counter${descriptionLeft <= 0 ? ' at-limit' : ''}`}>
                {descriptionLeft} characters remaining
              </p>
            }
          >
            <input
              id={ids.description}
              className={descriptionLeft <= 0 ? 'at-limit' : undefined}
              maxLength={MAX_DESCRIPTION}
              required
              aria-required="true"
              aria-describedby={ids.counter}
              {...fieldProps('description', (typed) => typed.slice(0, MAX_DESCRIPTION))}
            />
          </EditorField>

          <EditorField
            id={ids.story}
            label="Your story"
            hint={
              form.story.includes('[[name]]') && (
                <p id={ids.storyHint} className="editor-hint">
                  [[name]] becomes your full name when you sign in.
                </p>
              )
            }
          >
            <textarea
              id={ids.story}
              rows={7}
              aria-describedby={form.story.includes('[[name]]') ? ids.storyHint : undefined}
              {...fieldProps('story')}
            />
          </EditorField>

          <EditorField
            id={ids.video}
            label="Video link"
            hint={
              <p id={ids.videoHint} className="editor-hint">
                A link to your video on YouTube, Vimeo, Loom or Wistia.
              </p>
            }
          >
            <input
              id={ids.video}
              type="url"
              inputMode="url"
              placeholder="https://www.youtube.com/watch?v=…"
              aria-describedby={ids.videoHint}
              {...fieldProps('video')}
            />
          </EditorField>

          <div className="editor-row">
            <EditorField id={more.from} label="Start date">
              <input
                id={more.from}
                type="date"
                aria-invalid={startProblem ? true : undefined}
                aria-describedby={startSaid}
                {...fieldProps('dateFrom')}
              />
              {startProblem ? (
                <p className="editor-field-error editor-inline-error" id={`${more.from}-error`}>
                  {startProblem}
                </p>
              ) : null}
              {startNote ? (
                <p className="editor-hint" id={`${more.from}-note`}>
                  {startNote}
                </p>
              ) : null}
            </EditorField>
            <EditorField id={more.to} label="End date">
              <input
                id={more.to}
                type="date"
                min={form.dateFrom || undefined}
                aria-invalid={datesProblem ? true : undefined}
                aria-describedby={endSaid}
                {...fieldProps('dateTo')}
              />
              {/* A date picker honours `min`, but a typed or saved date may not: the problem is said here. */}
              {datesProblem ? (
                <p className="editor-field-error editor-inline-error" id={`${more.to}-error`}>
                  {datesProblem}
                </p>
              ) : null}
              {endNote ? (
                <p className="editor-hint" id={`${more.to}-note`}>
                  {endNote}
                </p>
              ) : null}
            </EditorField>
          </div>

          <div className="editor-row">
            <EditorField id={more.goal} label="Goal (£)" required>
              <div className="editor-money">
                <span aria-hidden="true">£</span>
                <input
                  id={more.goal}
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder="500"
                  required
                  aria-required="true"
                  maxLength={16}
                  aria-invalid={goalProblem(form.goal) ? true : undefined}
                  aria-describedby={goalProblem(form.goal) ? `${more.goal}-error` : undefined}
                  {...fieldProps('goal')}
                />
              </div>
              {/* What was typed stays as typed ("-5" is not quietly 5): the problem is said here. */}
              {goalProblem(form.goal) ? (
                <p className="editor-field-error editor-inline-error" id={`${more.goal}-error`}>
                  {goalProblem(form.goal)}
                </p>
              ) : null}
            </EditorField>

            {kind === 'appeal' ? (
              <EditorField
                id={more.campaign}
                label="Campaign"
                hint={
                  endedFromLink && !form.campaignId ? (
                    <p id={`${more.campaign}-note`} className="editor-hint">
                      {endedFromLink}
                    </p>
                  ) : null
                }
              >
                <EditorSelect
                  id={more.campaign}
                  value={form.campaignId}
                  onChange={(v) => update('campaignId', v)}
                  none="General fund (we choose)"
                  options={campaignSelect}
                  describedBy={endedFromLink && !form.campaignId ? `${more.campaign}-note` : undefined}
                />
              </EditorField>
            ) : (
              <EditorField id={more.org} label="Organization" required>
                <EditorSelect
                  id={more.org}
                  value={form.organizationId}
                  onChange={(v) => update('organizationId', v)}
                  none={orgOptions === null ? 'Loading…' : 'Choose an organization'}
                  options={(orgOptions ?? []).map(toChoice)}
                  required
                />
              </EditorField>
            )}

            {canSetStatus && (
              <EditorField
                id={more.status}
                label="Status"
                hint={
                  statusNote && (
                    <p id={more.statusNote} className="editor-hint">
                      {statusNote}
                    </p>
                  )
                }
              >
                <EditorSelect
                  id={more.status}
                  value={form.status}
                  onChange={(v) => update('status', v as EditorForm['status'])}
                  options={STATUS_CHOICES}
                  describedBy={statusNote ? more.statusNote : undefined}
                />
              </EditorField>
            )}
          </div>

          {canSetStatus && (
            <div className="editor-field editor-check">
              <label htmlFor={more.sponsored}>
                <input
                  id={more.sponsored}
                  type="checkbox"
                  checked={form.sponsoredEvent}
                  aria-describedby={more.sponsoredHint}
                  onChange={(e) => update('sponsoredEvent', e.target.checked)}
                />{' '}
                Sponsored event
              </label>
              <p id={more.sponsoredHint} className="editor-hint">
                For a sponsored walk, run or similar: its gifts carry &ldquo;Yes&rdquo; in the Sponsored event column of
                the Gift Aid schedule and are never aggregated with other small gifts.
              </p>
            </div>
          )}

          {/* An appeal's gifts are its campaign's income: only a campaign is a fund with a code. */}
          {kind === 'campaign' && setsCodes && form.incomeCode !== null && (
            <EditorField
              id={more.incomeCode}
              label="Income code"
              hint={
                <p id={more.incomeCodeHint} className="editor-hint">
                  The nominal code this fund&rsquo;s gifts post to in the accounts journal (Xero, Sage); empty uses the
                  organization&rsquo;s income code, or {ORGANIZATION_NOMINAL_CODES.income_code.defaultsTo}.
                </p>
              }
            >
              <input
                id={more.incomeCode}
                autoComplete="off"
                spellCheck={false}
                maxLength={NOMINAL_CODE_MAX_LENGTH + 2}
                placeholder={ORGANIZATION_NOMINAL_CODES.income_code.placeholder}
                aria-describedby={more.incomeCodeHint}
                value={form.incomeCode}
                onChange={(e) => update('incomeCode', e.target.value)}
              />
            </EditorField>
          )}

          <ImagesField images={form.images} onChange={(images) => update('images', images)} />

          <div ref={errorRef} tabIndex={-1} role="alert" className={error ? 'editor-error' : 'editor-error-empty'}>
            {error}
          </div>

          {confirmingDelete ? (
            <div
              ref={confirmRef}
              tabIndex={-1}
              role="alertdialog"
              aria-labelledby={more.deleteQuestion}
              className="editor-confirm-delete"
            >
              <p id={more.deleteQuestion}>
                Delete this {label(kind).toLowerCase()}? It comes off the site and out of every list; its gifts and
                totals are kept. An admin can set it back to Approved later.
              </p>
              <div className="editor-actions">
                <button
                  type="button"
                  className="btn btn-ghost"
                  onClick={() => {
                    setConfirmingDelete(false);
                    requestAnimationFrame(() => document.getElementById(more.status)?.focus());
                  }}
                >
                  Keep it
                </button>
                <button type="submit" className="btn btn-danger" disabled={saving}>
                  {saving ? 'Deleting…' : `Yes, delete this ${label(kind).toLowerCase()}`}
                </button>
              </div>
            </div>
          ) : (
            <div className="editor-actions">
              <button type="button" className="btn btn-ghost" onClick={() => (onCancel ? onCancel() : leave(kind))}>
                Cancel
              </button>
              <button
                type="submit"
                className="btn btn-primary"
                disabled={!ready || saving}
                aria-describedby={ready ? undefined : more.missing}
              >
                {submitLabel}
              </button>
              {!ready && (
                <p id={more.missing} className="editor-missing">
                  To continue, add {listInWords(missing)}.
                </p>
              )}
            </div>
          )}
        </form>
        <PreviewCard form={form} kind={kind} creator={saved?.creator || name} raised={saved?.raised ?? 0} />
      </div>
    </div>
  );
}
