import { formatPenceShort, percentRaised } from '../../lib/format';
import { type EditorForm, type EditorKind, imageSrc, poundsToPence } from './editor-model';

/** `raised`: pence raised so far (an appeal being edited has gifts; a new one has none). */
type Props = { form: EditorForm; kind: EditorKind; creator: string; raised?: number };

/** Live preview in the shape of the public list card (src/components/CampaignCard.astro). */
export default function PreviewCard({ form, kind, creator, raised = 0 }: Props) {
  const cover = form.images[0];
  const goal = poundsToPence(form.goal) ?? 0;
  const percent = percentRaised(raised, goal);
  const title = form.title.trim() || (kind === 'appeal' ? 'Your appeal title' : 'Your campaign title');
  return (
    <aside className="editor-preview" aria-labelledby="editor-preview-heading">
      <h2 id="editor-preview-heading" className="editor-preview-heading">
        Preview
      </h2>
      <article className="card">
        <div className="card-media">
          {cover ? (
            <img src={imageSrc(cover)} alt="" />
          ) : (
            <div className="editor-preview-placeholder">Your cover image</div>
          )}
        </div>
        <div className="card-body">
          <div className="card-head">
            <span className="initial-badge" aria-hidden="true">
              {title.charAt(0).toUpperCase()}
            </span>
            <div>
              <h3 className="card-title">{title}</h3>
              {kind === 'appeal' && creator && <p className="card-by">By: {creator}</p>}
            </div>
          </div>
          <p className="card-desc">
            {form.description.trim() || 'A short description of what you are raising money for.'}
          </p>
          <p className="card-raised">
            <strong>{formatPenceShort(raised)}</strong> raised
          </p>
          <div className="progress" aria-hidden="true">
            <span style={{ width: `${Math.min(100, Number(percent))}%` }} />
          </div>
          <p className="card-figures">
            <span className="card-percent">{percent}%</span>
            <span>Goal: {formatPenceShort(goal)}</span>
          </p>
        </div>
      </article>
    </aside>
  );
}
