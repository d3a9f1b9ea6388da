import { useId, useState, type ReactNode } from 'react';

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
