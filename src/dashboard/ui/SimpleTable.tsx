import type { ReactNode } from 'react';

export type SimpleColumn<Row> = {
  /** The column's heading; also its key, so headings of one table differ. */
  header: string;
  cell: (row: Row) => ReactNode;
  /** Class of the column's cells. */
  className?: string;
};

type Props<Row> = {
  /** Names the table and its scrolling box for assistive technology. */
  label: string;
  /** A `false` entry is a column this view leaves out. */
  columns: (SimpleColumn<Row> | false)[];
  rows: Row[];
  className?: string;
  wrapClassName?: string;
  /** Rows of the table's foot (totals). */
  footer?: ReactNode;
  /** Shown instead of the table when there are no rows (a table of headings alone tells nobody anything). */
  empty?: ReactNode;
} & RowKey<Row>;

/** The row's React key; an API record (with an `_id`) needs none given. */
type RowKey<Row> = Row extends { _id: string } ? { rowKey?: (row: Row) => string } : { rowKey: (row: Row) => string };
const byId = (row: unknown) => (row as { _id: string })._id;

/**
 * A read-only table of a few rows, without the sorting and paging of DataTable: a record's history,
 * a claim list, a payout's lines. Its box scrolls sideways on a narrow screen and takes focus, since
 * its cells may hold nothing a keyboard could reach to scroll it.
 */
export function SimpleTable<Row>(props: Props<Row>) {
  const { label, columns, rows, rowKey = byId, className, wrapClassName, footer, empty } = props;
  if (!rows.length && empty !== undefined) return empty;
  const shown = columns.filter((c): c is SimpleColumn<Row> => c !== false);
  return (
    <div className={wrapClassName ? `dash-table-wrap ${wrapClassName}` : 'dash-table-wrap'}>
      <div className="dash-table-scroll" tabIndex={0} role="region" aria-label={label}>
        <table className={className ? `dash-table ${className}` : 'dash-table'} aria-label={label}>
          <thead>
            <tr>
              {shown.map((c) => (
                <th key={c.header} scope="col">
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={rowKey(row)}>
                {shown.map((c) => (
                  <td key={c.header} className={c.className}>
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          {footer ? <tfoot>{footer}</tfoot> : null}
        </table>
      </div>
    </div>
  );
}
