import { useId, useState } from 'react';
import { FAQS } from '../../mock-data';
import { Icon } from '../../ui/icons';

/** Spec mock-up: single-open, collapsible accordion. */
export function Faqs() {
  const [open, setOpen] = useState<number | null>(0);
  const base = useId();
  return (
    <section className="dash-section dash-narrow-700">
      <h1>FAQs</h1>
      <div className="dash-accordion">
        {FAQS.map((f, i) => {
          const expanded = open === i;
          return (
            <div key={f.q} className="dash-accordion-item">
              <h2 className="dash-accordion-h">
                <button
                  type="button"
                  id={`${base}-h${i}`}
                  aria-expanded={expanded}
                  aria-controls={`${base}-p${i}`}
                  onClick={() => setOpen(expanded ? null : i)}
                >
                  {f.q}
                  <Icon name="chevronDown" size={18} className={expanded ? 'dash-rot180' : undefined} />
                </button>
              </h2>
              <div
                id={`${base}-p${i}`}
                role="region"
                aria-labelledby={`${base}-h${i}`}
                hidden={!expanded}
                className="dash-accordion-panel"
              >
                <p>{f.a}</p>
              </div>
            </div>
          );
        })}
      </div>
    </section>
  );
}
