import { useId, useState, type ReactNode } from 'react';
import { Alert, Spinner } from '../ui/primitives';
import { chartSizes, useTextScale } from './text-scale';

/** A chart's plot height at the default text size; it grows with the text (chartSizes). */
export const CHART_HEIGHT = 260;

/** The overview's charts, in order: their loading cards are drawn before the charts' code arrives. */
export const CHART_TITLES = {
  giftsPerWeek: 'Gifts per week (last 52 weeks)',
  campaignProgress: 'Raised per campaign against its goal',
  monthlyRecurring: 'Monthly recurring income and active monthly donors',
  newVsReturning: 'New and returning donors',
  giftAid: 'Gift Aid',
} as const;

/**
 * A chart card while its figures load: its head and a box of the plot's height, so the cards and
 * the carousel below keep their place when the chart comes (decision 065). An error takes the box's place.
 */
export function ChartLoading({ title, error = null }: { title: string; error?: string | null }) {
  const { px } = chartSizes(useTextScale());
  return (
    <section className="dash-chart-card" aria-label={title}>
      <div className="dash-chart-head">
        <h3>{title}</h3>
        <span className="dash-chart-toggle-space" />
      </div>
      {error ? (
        <Alert>{error}</Alert>
      ) : (
        <div className="dash-chart-wait" style={{ height: px(CHART_HEIGHT) }}>
          <Spinner />
        </div>
      )}
    </section>
  );
}

/** Every chart card loading: the overview's placeholder while the charts' code (and recharts) arrives. */
export function ChartsLoading() {
  return (
    <div className="dash-chart-grid">
      {Object.values(CHART_TITLES).map((title) => (
        <ChartLoading key={title} title={title} />
      ))}
    </div>
  );
}

export type Column<Row> = { header: string; cell: (row: Row) => ReactNode; numeric?: boolean };

/**
 * One chart with its table view: the chart is an image to assistive technology (labelled with a
 * summary), the table holds every figure. The toggle remembers nothing: the chart shows first.
 */
export function ChartCard<Row>(props: {
  title: string;
  summary: string;
  rows: Row[];
  columns: Column<Row>[];
  rowKey: (row: Row) => string;
  empty?: boolean;
  children: ReactNode;
}) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const id = useId();
  return (
    <section className="dash-chart-card" aria-labelledby={`${id}-title`}>
      <div className="dash-chart-head">
        <h3 id={`${id}-title`}>{props.title}</h3>
        <div className="dash-chart-toggle" role="group" aria-label={`${props.title}: view`}>
          <button type="button" aria-pressed={view === 'chart'} onClick={() => setView('chart')}>
            Chart
          </button>
          <button type="button" aria-pressed={view === 'table'} onClick={() => setView('table')}>
            Table
          </button>
        </div>
      </div>
      {props.empty ? (
        <p className="dash-empty">No gifts in this period yet.</p>
      ) : view === 'chart' ? (
        <div className="dash-chart" role="img" aria-label={`${props.summary} Choose Table for the figures.`}>
          {props.children}
        </div>
      ) : (
        <div
          className="dash-table-scroll dash-chart-table-scroll"
          tabIndex={0}
          role="region"
          aria-label={`${props.title}: figures`}
        >
          <table className="dash-table dash-chart-table">
            <caption className="visually-hidden">{props.title}</caption>
            <thead>
              <tr>
                {props.columns.map((c) => (
                  <th key={c.header} scope="col" className={c.numeric ? 'num' : undefined}>
                    {c.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row) => (
                <tr key={props.rowKey(row)}>
                  {props.columns.map((c, i) =>
                    i === 0 ? (
                      <th key={c.header} scope="row">
                        {c.cell(row)}
                      </th>
                    ) : (
                      <td key={c.header} className={c.numeric ? 'num' : undefined}>
                        {c.cell(row)}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
