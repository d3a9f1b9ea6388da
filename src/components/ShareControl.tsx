import { useEffect, useState } from 'react';

export type ShareControlProps = {
  /** Absolute share link, computed on the server from the configured origin. */
  url?: string;
  /** Or a path, resolved against the page's origin in the browser (pre-rendered pages). */
  path?: string;
  title: string;
  /** Visible label of the disclosure, e.g. 'Share Appeal'. */
  label?: string;
  /** Accessible suffix naming what is shared, when several controls are on one page. */
  context?: string;
};

/**
 * A read-only share link with a copy button, plus the platform share sheet where the browser has
 * one. A <details> disclosure, so the link is reachable before (and without) hydration.
 */
export default function ShareControl({ url, path, title, label = 'Share', context }: ShareControlProps) {
  const [href, setHref] = useState(url ?? path ?? '');
  const [canShare, setCanShare] = useState(false);
  const [status, setStatus] = useState('');

  useEffect(() => {
    if (!url && path) setHref(new URL(path, window.location.origin).toString());
    setCanShare(typeof navigator.share === 'function');
  }, [url, path]);

  async function copy(input: HTMLInputElement | null) {
    try {
      await navigator.clipboard.writeText(href);
      setStatus('Link copied');
    } catch {
      // Clipboard API refused (permissions, insecure origin): select the text for a manual copy.
      input?.select();
      setStatus('Press Ctrl+C (or Cmd+C) to copy the selected link');
    }
  }

  async function share() {
    try {
      await navigator.share({ title, url: href });
    } catch {
      // The user closed the share sheet: nothing to report.
    }
  }

  return (
    <details className="share">
      <summary className="btn btn-outline btn-small">
        {label}
        {context && <span className="visually-hidden"> {context}</span>}
      </summary>
      <div className="share-panel">
        <div className="share-row">
          {/* A wrapping label: several islands on one page must not share generated ids. */}
          <label className="share-label">
            <span>Share link</span>
            <input type="text" readOnly value={href} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <button
            type="button"
            className="btn btn-primary btn-small"
            onClick={(e) => copy(e.currentTarget.parentElement?.querySelector('input') ?? null)}
          >
            Copy<span className="visually-hidden"> link</span>
          </button>
        </div>
        {canShare && (
          <button type="button" className="btn btn-ghost btn-small" onClick={share}>
            More ways to share…
          </button>
        )}
        <p className="share-status" role="status">
          {status}
        </p>
      </div>
    </details>
  );
}
