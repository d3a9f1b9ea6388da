import { type ReactNode, useEffect, useRef, useState } from 'react';
import { formatLongUkDate, formatPence, MAX_PAUSE_MONTHS, paymentMethodLabel } from '../../../../domain';
import { api, type ApiResult, client, type Data } from '../../../lib/api';
import { useApiGet } from '../../lib/use-api';
import { Alert, Badge } from '../../ui/primitives';
import '../../donor-panels.css';

const mine = client.api.me['monthly-gifts'];
type MonthlyGift = Data<typeof mine.$get>[number];
type Price = Data<typeof client.api.stripe.subscriptions.$get>[number];

const day = (iso: string | null) => (iso ? formatLongUkDate(new Date(iso)) : '—');
const STATUS: Record<MonthlyGift['status'], [string, 'ok' | 'warn' | 'danger' | 'muted']> = {
  active: ['Active', 'ok'],
  paused: ['Paused', 'warn'],
  past_due: ['Payment failed', 'danger'],
  incomplete: ['Starting', 'muted'],
  cancelled: ['Cancelled', 'muted'],
};

/** My Donations: each monthly gift with Change amount, Pause for 1-3 months (Resume now while paused) and Cancel. */
export function MonthlyGifts() {
  const [state, reload] = useApiGet('/api/me/monthly-gifts', (o) => mine.$get(undefined, o));
  const [prices] = useApiGet('/api/stripe/subscriptions', (o) => client.api.stripe.subscriptions.$get(undefined, o));
  // The cards stay while a change reloads the list, so the confirmation a card shows is not lost.
  const shown = useRef<MonthlyGift[]>([]);
  if (state.status === 'ok') shown.current = state.data;
  if (state.status === 'error') return <Alert>{state.error.message}</Alert>;
  if (shown.current.length === 0) return null;
  return (
    <section aria-labelledby="mg-title">
      <h2 id="mg-title">Monthly gifts</h2>
      <ul className="mg-list">
        {shown.current.map((gift) => (
          <MonthlyGiftCard
            key={gift._id}
            gift={gift}
            prices={prices.status === 'ok' ? prices.data : []}
            onChanged={reload}
          />
        ))}
      </ul>
    </section>
  );
}

/** Says which payments the pause skips and when the next is taken: the pause's end is rarely a payment date. */
export function pausedMessage(gift: MonthlyGift): string {
  const skipped = gift.skipped_payments.map(day);
  const list = skipped.length > 1 ? `${skipped.slice(0, -1).join(', ')} and ${skipped.at(-1)}` : skipped[0];
  const what = list ? ` The payment${skipped.length > 1 ? 's' : ''} due on ${list} will not be taken.` : '';
  return `Your gift is paused.${what} It restarts on its own: the next payment is on ${day(gift.next_payment_at)}.`;
}

/** One step of changing a gift, in line: its question, then confirm and back. */
function InlineStep(props: {
  children: ReactNode;
  /** Names the step as a group when its question is not a form label. */
  group?: string;
  confirm: string;
  danger?: boolean;
  disabled: boolean;
  onConfirm: () => void;
  back?: string;
  onBack: () => void;
}) {
  // The step takes the place of the button that opened it: focus goes to its field, or to its safe
  // choice when it only asks (cancelling), never to the page's body.
  const box = useRef<HTMLDivElement>(null);
  const danger = Boolean(props.danger);
  useEffect(() => {
    const step = box.current;
    const field = step?.querySelector<HTMLElement>('select, input');
    (field ?? step?.querySelector<HTMLElement>(danger ? '.btn-ghost' : '.btn'))?.focus();
  }, [danger]);
  return (
    <div ref={box} className="mg-inline" role={props.group ? 'group' : undefined} aria-label={props.group}>
      {props.children}
      <button
        type="button"
        className={`btn ${props.danger ? 'btn-danger' : 'btn-primary'} dash-btn-sm`}
        disabled={props.disabled}
        onClick={props.onConfirm}
      >
        {props.confirm}
      </button>
      <button type="button" className="btn btn-ghost dash-btn-sm" onClick={props.onBack}>
        {props.back ?? 'Back'}
      </button>
    </div>
  );
}

type Mode = 'idle' | 'change' | 'pause' | 'resume' | 'cancel';

function MonthlyGiftCard({ gift, prices, onChanged }: { gift: MonthlyGift; prices: Price[]; onChanged: () => void }) {
  const [mode, setMode] = useState<Mode>('idle');
  // Back from a step, focus returns to the button that opened it (or to the card, when a cancelled
  // gift no longer offers it).
  const openers = useRef<Partial<Record<Mode, HTMLButtonElement | null>>>({});
  const card = useRef<HTMLLIElement>(null);
  const lastMode = useRef<Mode>('idle');
  const openerOf = (step: Mode) => (el: HTMLButtonElement | null) => {
    openers.current[step] = el;
  };
  useEffect(() => {
    const left = lastMode.current;
    lastMode.current = mode;
    if (mode !== 'idle' || left === 'idle') return;
    const opener = openers.current[left];
    if (opener?.isConnected) opener.focus();
    else card.current?.focus();
  }, [mode]);
  const [price, setPrice] = useState('');
  const [months, setMonths] = useState(1);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const cause = gift.cause.appeal ? `${gift.cause.appeal} (${gift.cause.campaign})` : gift.cause.campaign;
  const [label, tone] = STATUS[gift.status];
  const running = gift.status !== 'cancelled';

  // hc puts path parameters in as they are, so the id is encoded here.
  const param = { id: encodeURIComponent(gift._id) };
  const act = async (call: () => Promise<ApiResult<MonthlyGift>>, message: string | ((g: MonthlyGift) => string)) => {
    setBusy(true);
    setError(null);
    const res = await call();
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    setMode('idle');
    setDone(typeof message === 'string' ? message : message(res.data));
    onChanged();
  };

  return (
    <li className="mg-card" data-testid="monthly-gift" ref={card} tabIndex={-1}>
      <div className="mg-head">
        <span className="mg-amount">{formatPence(gift.amount)} a month</span>
        <Badge tone={tone}>{label}</Badge>
      </div>
      <dl className="mg-facts">
        <div>
          <dt>Cause</dt>
          <dd>
            {cause}
            {/* Its page was taken down (decision 070): the gift still goes to the charity until it is cancelled. */}
            {!gift.cause.on_site && running ? (
              <span className="mg-off-site"> No longer on the site; your gift still goes to the charity.</span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{day(gift.started_at)}</dd>
        </div>
        <div>
          <dt>Paid by</dt>
          <dd>{paymentMethodLabel(gift.payment_method, gift.bank_last4)}</dd>
        </div>
        {gift.status === 'cancelled' ? (
          <div>
            <dt>Cancelled</dt>
            <dd>{day(gift.cancelled_at)}</dd>
          </div>
        ) : gift.status === 'paused' ? (
          <>
            {gift.skipped_payments.length > 0 ? (
              <div>
                <dt>Skipped</dt>
                <dd>{gift.skipped_payments.map(day).join(', ')}</dd>
              </div>
            ) : null}
            <div>
              <dt>Next payment</dt>
              <dd>{day(gift.next_payment_at)}</dd>
            </div>
          </>
        ) : (
          <div>
            <dt>Next payment</dt>
            <dd>{day(gift.next_payment_at)}</dd>
          </div>
        )}
      </dl>
      {done ? <Alert tone="success">{done}</Alert> : null}
      {error ? <Alert>{error}</Alert> : null}
      {running && mode === 'idle' ? (
        <div className="mg-actions">
          <button
            ref={openerOf('change')}
            type="button"
            className="btn btn-outline dash-btn-sm"
            onClick={() => setMode('change')}
          >
            Change amount
          </button>
          {gift.status === 'paused' ? (
            <button
              ref={openerOf('resume')}
              type="button"
              className="btn btn-outline dash-btn-sm"
              onClick={() => setMode('resume')}
            >
              Resume now
            </button>
          ) : (
            <button
              ref={openerOf('pause')}
              type="button"
              className="btn btn-outline dash-btn-sm"
              onClick={() => setMode('pause')}
            >
              Pause for 1-{MAX_PAUSE_MONTHS} months
            </button>
          )}
          <button
            ref={openerOf('cancel')}
            type="button"
            className="btn btn-outline dash-btn-sm"
            onClick={() => setMode('cancel')}
          >
            Cancel
          </button>
        </div>
      ) : null}
      {mode === 'change' ? (
        <InlineStep
          confirm="Save amount"
          disabled={!price || busy}
          onConfirm={() =>
            act(
              () => api((o) => mine[':id'].change.$post({ param, json: { price } }, o)),
              'Your new amount starts with your next payment. Nothing extra is taken now.',
            )
          }
          onBack={() => setMode('idle')}
        >
          <label htmlFor={`mg-price-${gift._id}`}>New monthly amount</label>
          <select id={`mg-price-${gift._id}`} value={price} onChange={(e) => setPrice(e.target.value)}>
            <option value="">Choose an amount</option>
            {prices
              .filter((p) => p.unit_amount !== gift.amount)
              .map((p) => (
                <option key={p.id} value={p.id}>
                  {formatPence(p.unit_amount)} a month
                </option>
              ))}
          </select>
        </InlineStep>
      ) : null}
      {mode === 'pause' ? (
        <InlineStep
          confirm="Pause payments"
          disabled={busy}
          onConfirm={() =>
            act(() => api((o) => mine[':id'].pause.$post({ param, json: { months } }, o)), pausedMessage)
          }
          onBack={() => setMode('idle')}
        >
          <label htmlFor={`mg-months-${gift._id}`}>Pause for</label>
          <select id={`mg-months-${gift._id}`} value={months} onChange={(e) => setMonths(Number(e.target.value))}>
            {Array.from({ length: MAX_PAUSE_MONTHS }, (_, i) => i + 1).map((m) => (
              <option key={m} value={m}>
                {m} month{m === 1 ? '' : 's'}
              </option>
            ))}
          </select>
        </InlineStep>
      ) : null}
      {mode === 'resume' ? (
        <InlineStep
          confirm="Resume payments"
          disabled={busy}
          onConfirm={() =>
            act(
              () => api((o) => mine[':id'].resume.$post({ param }, o)),
              'Your monthly gift is running again. The next payment is on its usual date.',
            )
          }
          onBack={() => setMode('idle')}
        >
          <span>End the pause now? Payments go on from the next monthly date.</span>
        </InlineStep>
      ) : null}
      {mode === 'cancel' ? (
        <InlineStep
          group="Confirm cancelling"
          confirm="Yes, cancel it"
          danger
          disabled={busy}
          onConfirm={() =>
            act(
              () => api((o) => mine[':id'].cancel.$post({ param }, o)),
              'Your monthly gift is cancelled. Thank you for everything you have given.',
            )
          }
          back="Keep giving"
          onBack={() => setMode('idle')}
        >
          <span>Stop this monthly gift? No further payments will be taken.</span>
        </InlineStep>
      ) : null}
    </li>
  );
}
