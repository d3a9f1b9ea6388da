import { useState } from 'react';
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
      <Alert tone="success">
        <p className="dash-alert-title">Your appeal is live</p>
        <p>
          Anyone with its link can see it and give now. <a href={`/appeals/${created.id}`}>View your appeal</a> and
          share its link with friends and family.
        </p>
      </Alert>
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
