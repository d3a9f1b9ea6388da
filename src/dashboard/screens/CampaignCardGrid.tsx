import { formatPenceShort, percentRaised } from '../../lib/format';
import { joinPath } from '../lib/routes';
import type { CampaignItem } from '../lib/campaign-schema';
import { Badge, LinkButton } from '../ui/primitives';
import { supportersPath } from './supporters/AppealSupporters';
import { formatLongUkDay, givingEndedOn } from '../../../domain/giving-ends';
import { givingOpensOn } from '../../../domain/giving-opens';

/** Dashboard edit-mode cards: the second button is 'Edit' → current path + '-edit/{id}', on items the viewer may edit (can_edit). */
export function CampaignCardGrid({
  items,
  basePath,
  editMode = true,
}: {
  items: CampaignItem[];
  basePath: string;
  editMode?: boolean;
}) {
  if (items.length === 0) return <p className="dash-empty">No campaigns found</p>;
  return (
    <ul className="dash-card-grid">
      {items.map((item) => (
        <li key={item._id}>
          <CampaignCard item={item} basePath={basePath} editMode={editMode} />
        </li>
      ))}
    </ul>
  );
}

export function CampaignCard({
  item,
  basePath,
  editMode,
}: {
  item: CampaignItem;
  basePath?: string;
  editMode?: boolean;
}) {
  const isAppeal = !!item.campaign_id;
  const raised = item.summary?.total_donations ?? 0;
  const goal = item.goal ?? 0;
  const percent = percentRaised(raised, goal);
  const bar = Math.min(100, Number(percent));
  const image = item.images?.[0]?.url;
  const title = item.title || 'Untitled';
  const publicHref = `${isAppeal ? '/appeals' : '/campaigns'}/${item.short_id ?? item._id}`;
  const creator = [item.created_by?.first_name, item.created_by?.last_name].filter(Boolean).join(' ');
  const initial = title.trim().charAt(0).toUpperCase() || '?';
  // Past its end date (or its campaign's) the item takes no gifts, nor before its start date (or its
  // campaign's): the fundraiser sees why (docs/decisions/056, 059).
  const now = new Date();
  const endedOn = givingEndedOn(item, now);
  const opensOn = endedOn ? null : givingOpensOn(item, now);
  // An appeal shows and takes gifts only while its campaign is approved (decision 066).
  const campaignDown = isAppeal && item.campaign_status != null && item.campaign_status !== 'approved';
  const takesGifts = !endedOn && !opensOn && !campaignDown;
  const onSite = (item.status ?? 'approved') === 'approved' && !campaignDown;
  return (
    <article className="dash-ccard">
      <div className="dash-ccard-media">
        {image ? <img src={image} alt="" loading="lazy" width={600} height={400} /> : null}
      </div>
      <div className="dash-ccard-body">
        <div className="dash-ccard-head">
          <span className="initial-badge" aria-hidden="true">
            {initial}
          </span>
          <h2 className="dash-ccard-title">{title}</h2>
          {item.status && item.status !== 'approved' ? (
            <Badge tone={item.status === 'deleted' ? 'danger' : 'warn'}>{item.status}</Badge>
          ) : campaignDown ? (
            <Badge tone="warn">Campaign taken down</Badge>
          ) : endedOn ? (
            <Badge tone="muted">Ended {formatLongUkDay(endedOn)}</Badge>
          ) : opensOn ? (
            <Badge tone="muted">Opens {formatLongUkDay(opensOn)}</Badge>
          ) : (
            <Badge>Active</Badge>
          )}
        </div>
        {isAppeal && creator ? <p className="dash-muted">By: {creator}</p> : null}
        {item.description ? <p className="dash-ccard-desc">{item.description}</p> : null}
        <p>
          <strong>{formatPenceShort(raised)}</strong> raised
        </p>
        <div
          className="progress"
          role="progressbar"
          aria-label={`${title}: ${percent}% of goal raised`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={bar}
        >
          <span style={{ width: `${bar}%` }} />
        </div>
        {/* Spec: the card shows the percent of goal and the goal, as the public cards do. */}
        <p className="card-figures">
          <span className="card-percent">{percent}%</span>
          <span>Goal: {formatPenceShort(goal)}</span>
        </p>
        <div className="dash-ccard-actions">
          {/* An appeal's Donate goes to its donation box, not the top of its page; an ended or unopened one's page says why not. */}
          {/* A draft, a deleted item or an appeal whose campaign is taken down has no public page: no link to a 404. */}
          {onSite ? (
            <LinkButton href={isAppeal && takesGifts ? `${publicHref}#donate` : publicHref} small>
              {isAppeal && takesGifts ? 'Donate' : 'View'}
              <span className="visually-hidden"> {title}</span>
            </LinkButton>
          ) : null}
          {editMode && basePath && item.can_edit ? (
            <a
              className="btn btn-outline dash-btn-sm"
              href={joinPath(basePath, `-edit/${encodeURIComponent(item._id)}`)}
            >
              Edit<span className="visually-hidden"> {title}</span>
            </a>
          ) : null}
          {/* Who gave, to thank them (decision 075): for whoever may edit the appeal. */}
          {editMode && isAppeal && item.can_edit ? (
            <a className="btn btn-outline dash-btn-sm" href={supportersPath(item._id)}>
              Supporters<span className="visually-hidden"> of {title}</span>
            </a>
          ) : null}
        </div>
      </div>
    </article>
  );
}
