import { useTable, type PaginationState, type Row, type SortingState } from '@tanstack/react-table';
import { useState, type ReactNode } from 'react';
import { DataTablePagination } from './data-table-pagination';
import { type DashColumnDef, type DashTable, type Features, features } from './features';

export type ServerPaging = {
  rowCount: number;
  pagination: PaginationState;
  onPaginationChange: (next: PaginationState) => void;
  /** Server-side sorting: rows arrive sorted; a header click asks for another sort. */
  sorting?: SortingState;
  onSortingChange?: (next: SortingState) => void;
};

type Props<TData extends object> = {
  columns: DashColumnDef<TData>[];
  data: TData[];
  caption: string;
  /** Row click (keyboard: Enter on the focused row). */
  onRowClick?: (row: TData) => void;
  getRowId?: (row: TData, index: number) => string;
  /** Server-side paging: rows are already the current page. */
  serverPaging?: ServerPaging;
  /** Rendered above the table with the table instance (search, view options, bulk actions). */
  toolbar?: (table: DashTable<TData>) => ReactNode;
  globalFilter?: string;
  loading?: boolean;
  emptyText?: string;
};

/** Generic dashboard table: semantic markup, sortable headers, paging only when rows exist. */
export function DataTable<TData extends object>(props: Props<TData>) {
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 10 });
  const server = props.serverPaging;
  const table = useTable<Features, TData>({
    features,
    columns: props.columns,
    data: props.data,
    getRowId: props.getRowId,
    manualPagination: !!server,
    manualSorting: !!server?.onSortingChange,
    rowCount: server?.rowCount,
    ...(server?.onSortingChange
      ? {
          onSortingChange: (updater: SortingState | ((old: SortingState) => SortingState)) => {
            const current = server.sorting ?? [];
            server.onSortingChange!(typeof updater === 'function' ? updater(current) : updater);
          },
        }
      : {}),
    state: {
      ...(server?.onSortingChange ? { sorting: server.sorting ?? [] } : {}),
      pagination: server ? server.pagination : pagination,
      ...(props.globalFilter !== undefined ? { globalFilter: props.globalFilter } : {}),
    },
    onPaginationChange: (updater) => {
      const current = server ? server.pagination : pagination;
      const next = typeof updater === 'function' ? updater(current) : updater;
      if (server) server.onPaginationChange(next);
      else setPagination(next);
    },
    globalFilterFn: 'includesString',
    autoResetPageIndex: !server,
  });

  const rows = table.getRowModel().rows;
  const hasData = server
    ? server.rowCount > 0 || props.data.length > 0
    : table.getPrePaginatedRowModel().rows.length > 0;
  const visibleCount = table.getVisibleLeafColumns().length;

  const activate = (row: Row<Features, TData>) => props.onRowClick?.(row.original);

  return (
    <div className="dash-table-wrap">
      {props.toolbar?.(table)}
      {/* A table whose rows do not open anything may hold nothing focusable: the scrolling box itself
          takes focus then, so a keyboard can scroll it on a narrow screen. */}
      <div
        className="dash-table-scroll"
        {...(props.onRowClick ? {} : { tabIndex: 0, role: 'region', 'aria-label': props.caption })}
      >
        <table className="dash-table" aria-busy={props.loading || undefined}>
          <caption className="visually-hidden">{props.caption}</caption>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th
                    key={header.id}
                    scope="col"
                    // The sorted column says so to screen readers' table navigation, not only in its button's label.
                    aria-sort={
                      header.column.getIsSorted() === 'asc'
                        ? 'ascending'
                        : header.column.getIsSorted() === 'desc'
                          ? 'descending'
                          : undefined
                    }
                  >
                    {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.length ? (
              rows.map((row) => (
                <tr
                  key={row.id}
                  className={props.onRowClick ? 'dash-row-link' : undefined}
                  data-state={row.getIsSelected() ? 'selected' : undefined}
                  tabIndex={props.onRowClick ? 0 : undefined}
                  onClick={props.onRowClick ? () => activate(row) : undefined}
                  onKeyDown={
                    props.onRowClick
                      ? (e) => {
                          if (e.key === 'Enter' && e.target === e.currentTarget) activate(row);
                        }
                      : undefined
                  }
                >
                  {row.getVisibleCells().map((cell) => {
                    const cellClick = cell.column.columnDef.meta?.cellClick;
                    return (
                      <td
                        key={cell.id}
                        className={
                          cellClick === 'inert' ? 'dash-cell-inert' : cellClick ? 'dash-cell-action' : undefined
                        }
                        onClick={
                          cellClick
                            ? (e) => {
                                e.stopPropagation();
                                if (cellClick !== 'inert') cellClick(row.original);
                              }
                            : undefined
                        }
                      >
                        <table.FlexRender cell={cell} />
                      </td>
                    );
                  })}
                </tr>
              ))
            ) : (
              <tr>
                <td colSpan={visibleCount} className="dash-table-empty">
                  {props.loading ? 'Loading...' : (props.emptyText ?? 'No results')}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {hasData ? <DataTablePagination table={table} /> : null}
    </div>
  );
}
