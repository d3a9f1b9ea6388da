import { useStore } from '@nanostores/react';
import { type FormEvent, useEffect, useState } from 'react';
import {
  EMPTY_GIFT_AID,
  GiftAidFields,
  giftAidReady,
  type GiftAidValue,
} from '../../../components/donation/GiftAidFields';
import { api, type ApiResult, client, type Data } from '../../../lib/api';
import { formatDate } from '../../lib/dates';
import { useApiGet } from '../../lib/use-api';
import { $dashToken } from '../../session';
import { declarationValue } from './declaration-value';
import { Alert, Badge, Section } from '../../ui/primitives';

const giftAid = client.api['gift-aid'];
type Mine = Data<typeof giftAid.me.$get>;

/**
 * My Info's Gift Aid part: the declarations on record, a new address (a new version; earlier
 * gifts keep theirs) and cancelling (kept on record with its end date).
 */
export function MyGiftAid() {
  const token = useStore($dashToken);
  const [load] = useApiGet('/api/gift-aid/me', (o) => giftAid.me.$get(undefined, o));
  const [mine, setMine] = useState<Mine | null>(null);
  const [value, setValue] = useState<GiftAidValue>(EMPTY_GIFT_AID);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);

  useEffect(() => {
    if (load.status !== 'ok') return;
    setMine(load.data);
    const current = load.data.declarations.find((d) => !d.replaced_by && !d.cancelled_at);
    if (current) setValue(declarationValue(current));
  }, [load]);

  if (!mine) return null;
  const current = mine.declarations.find((d) => !d.replaced_by && !d.cancelled_at);

  // Both changes answer the declarations as they are now.
  async function send(call: () => Promise<ApiResult<Mine>>, done: string) {
    setBusy(true);
    setMessage(null);
    const res = await call();
    setBusy(false);
    if (!res.ok) return setMessage({ tone: 'error', text: res.error.message });
    setMine(res.data);
    setMessage({ tone: 'success', text: done });
  }

  const updateAddress = (e: FormEvent) => {
    e.preventDefault();
    void send(() => api((o) => giftAid.me.$put({ json: value }, o), { token }), 'Your Gift Aid address is updated.');
  };

  const cancelDeclaration = () => {
    if (!window.confirm('Cancel your Gift Aid declaration? Gifts from now on will not have Gift Aid.')) return;
    void send(
      () => api((o) => giftAid.me.cancel.$post(undefined, o), { token }),
      'Your Gift Aid declaration is cancelled. It stays on record with today’s date.',
    );
  };

  return (
    <Section title="Gift Aid" className="dash-form gift-aid-me">
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      {current ? (
        <>
          <p>
            Your Gift Aid declaration is in force (made {formatDate(current.declared_at)}
            {current.method === 'admin' ? ', recorded by the charity' : ' online'}, version {current.version}). If your
            address changes, update it here: gifts you already made keep the address they were given under.
          </p>
          <form onSubmit={updateAddress}>
            <div className="donation-box gift-aid-me-fields">
              <GiftAidFields value={value} onChange={setValue} declaration={current.declaration} idPrefix="me" />
            </div>
            <div className="dash-form-actions">
              <button type="button" className="btn btn-ghost" disabled={busy} onClick={cancelDeclaration}>
                Cancel my declaration
              </button>
              <button type="submit" className="btn btn-primary" disabled={busy || !giftAidReady(value)}>
                Update my Gift Aid address
              </button>
            </div>
          </form>
        </>
      ) : (
        <p>You have no Gift Aid declaration in force. Tick Gift Aid with your next donation to add 25p to every £1.</p>
      )}
      {mine.declarations.length ? (
        <details>
          <summary>Declarations on record ({mine.declarations.length})</summary>
          <ul className="gift-aid-history">
            {mine.declarations.map((d) => (
              <li key={d._id}>
                Version {d.version}: {[d.title, d.first_name, d.last_name].filter(Boolean).join(' ')}, {d.house}{' '}
                {d.address}, {d.postcode}{' '}
                {d.cancelled_at ? (
                  <Badge tone="muted">ended {formatDate(d.cancelled_at)}</Badge>
                ) : d.replaced_by ? (
                  <Badge tone="muted">replaced</Badge>
                ) : (
                  <Badge>in force</Badge>
                )}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </Section>
  );
}
