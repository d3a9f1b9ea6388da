import { useStore } from '@nanostores/react';
import { formatDate } from '../../lib/dates';
import { REWARD_HISTORY, REWARD_LEVELS, REWARD_PROFILE } from '../../mock-data';
import { DataTable } from '../../tables/data-table';
import type { DashColumnDef } from '../../tables/features';
import { $dashUser } from '../../session';
import { Icon } from '../../ui/icons';

type HistoryRow = (typeof REWARD_HISTORY)[number];
const historyColumns: DashColumnDef<HistoryRow>[] = [
  { id: 'date', accessorKey: 'date', header: 'Date', cell: ({ row }) => formatDate(row.original.date) },
  { id: 'activity', accessorKey: 'activity', header: 'Activity' },
  { id: 'points', accessorKey: 'points', header: 'Points', cell: ({ row }) => `+${row.original.points}` },
];

/** Spec mock-up: static Level 5 → 6, 275 of 1000 points, bar at half. */
export function Rewards() {
  const user = useStore($dashUser);
  const p = REWARD_PROFILE;
  const name = user ? `${user.name.first_name} ${user.name.last_name}`.trim() : p.name;
  return (
    <section className="dash-section">
      <h1>Rewards & Achievements</h1>
      <div className="dash-reward-card">
        <div className="dash-avatar dash-avatar-lg" aria-hidden="true">
          {name.charAt(0)}
        </div>
        <div className="dash-stack dash-grow">
          <strong>{name}</strong>
          <span className="dash-muted">{p.uid}</span>
          <p className="dash-reward-level">
            Level {p.level} <span className="dash-muted">· next Level {p.nextLevel}</span>
          </p>
          <p>
            {p.points} of {p.nextThreshold} points · {p.toLevelUp} points to level up
          </p>
          <div
            className="progress"
            role="progressbar"
            aria-label="Progress to the next level"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={50}
          >
            <span style={{ width: '50%' }} />
          </div>
          <p className="dash-hint">To reach the next level, donate $5,000 cumulatively or get 20 shares.</p>
        </div>
        <a className="btn btn-primary" href="/appeals">
          <Icon name="star" size={16} /> Get Points
        </a>
      </div>
      <h2 className="dash-h2">Levels</h2>
      <ol className="dash-levels">
        {REWARD_LEVELS.map((l) => (
          <li
            key={l.level}
            className={l.level === p.level ? 'is-current' : l.level < p.level ? 'is-done' : undefined}
            aria-current={l.level === p.level ? 'step' : undefined}
          >
            <span className="dash-level-num">Level {l.level}</span>
            <strong>{l.title}</strong>
            <span className="dash-muted">{l.members}</span>
          </li>
        ))}
      </ol>
      <h2 className="dash-h2">Rewards history</h2>
      <DataTable caption="Rewards history" columns={historyColumns} data={REWARD_HISTORY} getRowId={(r) => r.id} />
    </section>
  );
}
