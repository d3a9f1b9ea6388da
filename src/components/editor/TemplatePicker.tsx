import { useEffect, useState } from 'react';
import { api, client } from '../../lib/api';
import { isStockCover, stockCoverThumb } from '../../../domain/stock-covers';
import type { TemplateCause } from './editor-model';

type Props = {
  onPick: (cause: TemplateCause | null) => void;
  /** The causes when the page rendered them: no request, and nothing on the page moves when they come. */
  rendered?: TemplateCause[];
};

/** Step one for fundraisers: pick a template cause (or start from scratch). */
export default function TemplatePicker({ onPick, rendered }: Props) {
  const [causes, setCauses] = useState<TemplateCause[] | null>(rendered ?? null);
  const [error, setError] = useState<string | null>(null);
  // The page renders the causes with its HTML (/fund-raising), before React can answer a click on
  // them. Until it hydrates they are disabled: an early tap meets a button that says it is not ready
  // instead of one that ignores it.
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);

  useEffect(() => {
    if (rendered) return;
    void api((o) => client.api['template-causes'].$get({ query: {} }, o)).then((result) => {
      if (!result.ok) {
        setError(result.error.message);
        setCauses([]);
      } else setCauses(result.data);
    });
  }, [rendered]);

  return (
    <section className="editor-templates" aria-labelledby="editor-templates-heading">
      <h2 id="editor-templates-heading">Choose a cause to fundraise for</h2>
      <p className="editor-hint">Pick a starting point. You can change every word on the next step.</p>
      {causes === null && <p role="status">Loading causes…</p>}
      {error && <p role="alert">{error}</p>}
      {causes && causes.length > 0 && (
        <ul className="editor-template-grid">
          {causes.map((cause) => (
            <li key={cause._id}>
              <button type="button" className="editor-template-card" disabled={!live} onClick={() => onPick(cause)}>
                {cause.image && isStockCover(cause.image) ? (
                  <img
                    className="editor-template-cover"
                    src={stockCoverThumb(cause.image)}
                    alt=""
                    width="480"
                    height="480"
                    loading="lazy"
                    decoding="async"
                  />
                ) : null}
                <span className="editor-template-title">{cause.title}</span>
                <span className="editor-template-desc">{cause.description}</span>
                {cause.campaign_title ? (
                  <span className="editor-template-for">Raises for {cause.campaign_title}</span>
                ) : null}
                <span className="editor-template-cta" aria-hidden="true">
                  Use this cause →
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <p>
        <button type="button" className="btn btn-outline" disabled={!live} onClick={() => onPick(null)}>
          Start from scratch
        </button>
      </p>
    </section>
  );
}
