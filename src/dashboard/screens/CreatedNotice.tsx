import { useId, useRef, useState } from 'react';
import { Alert } from '../ui/primitives';

/**
 * What happens next to an appeal just started at /fund-raising (its editor lands on the list with
 * ?created=<short id>&status=<status the API stored>): live at once, or held as a draft until the
 * charity approves it (organizations that check new appeals first).
 */
export function CreatedNotice() {
  const [created] = useState(() => {
    const params = new URLSearchParams(typeof window === 'undefined' ? '' : window.location.search);
    const id = params.get('created') ?? '';
    return /^[0-9A-Za-z-]{22,36}$/.test(id) ? { id, status: params.get('status') } : null;
  });
  if (!created) return null;
  if (created.status === 'approved') {
    return (
      <>
        <Alert tone="success">
          <p className="dash-alert-title">Your appeal is live</p>
          <p>
            Anyone with its link can see it and give now. <a href={`/appeals/${created.id}`}>View your appeal</a> and
            share its link with friends and family.
          </p>
        </Alert>
        {/* Beside the notice, not in it: the notice is a live region, and its copy status is another. */}
        <ShareLink path={`/appeals/${created.id}`} />
      </>
    );
  }
  return (
    <Alert tone="info">
      <p className="dash-alert-title">Your appeal is saved and waiting for approval</p>
      <p>
        The charity checks new appeals before they go public. It stays a draft, seen only by you and the charity, until
        they approve it; then it goes live at its link.
      </p>
    </Alert>
  );
}

/**
 * The new appeal's link, ready to copy: the moment a fundraiser most wants to send it, and the list's
 * cards below have no share control. The same wording as the public pages' share panel, written out
 * here rather than imported from src/lib/share-control.ts: a module shared with the dashboard becomes
 * a chunk of its own, and the public pages' share script, inline today, would become two requests.
 */
const COPIED = 'Link copied';
const COPY_BY_HAND = 'Press Ctrl+C (or Cmd+C) to copy the selected link';

function ShareLink({ path }: { path: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState('');
  const link = typeof window === 'undefined' ? path : new URL(path, window.location.origin).toString();
  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setStatus(COPIED);
    } catch {
      // Clipboard refused (permissions, insecure origin): select the link for a manual copy.
      input.current?.select();
      setStatus(COPY_BY_HAND);
    }
  }
  return (
    <div className="dash-share-link">
      <label htmlFor={id}>Share link</label>
      <div className="dash-share-row">
        <input
          id={id}
          ref={input}
          className="dash-input"
          type="text"
          readOnly
          value={link}
          onFocus={(e) => e.target.select()}
        />
        <button type="button" className="btn btn-primary dash-btn-sm" onClick={copy}>
          Copy<span className="visually-hidden"> link</span>
        </button>
      </div>
      <p className="dash-hint" role="status">
        {status}
      </p>
    </div>
  );
}
