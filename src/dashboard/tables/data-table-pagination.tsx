import { useId } from 'react';
import { Icon } from '../ui/icons';
import type { DashTable } from './features';
import { PAGE_SIZES } from './features';

export function DataTablePagination<TData extends object>({ table }: { table: DashTable<TData> }) {
  const id = useId();
  const { pageIndex, pageSize } = table.state.pagination;
  const pageCount = Math.max(1, table.getPageCount());
  const selected = table.getFilteredSelectedRowModel?.().rows.length ?? 0;
  const total = table.getRowCount();
  return (
    <nav className="dash-pagination" aria-label="Table pages">
      <p className="dash-pagination-info">
        {selected > 0 ? `${selected} of ${total} row(s) selected.` : `${total} row(s)`}
      </p>
      <div className="dash-pagination-controls">
        <label htmlFor={id}>Rows per page</label>
        <select
          id={id}
          className="dash-input dash-input-sm"
          value={pageSize}
          onChange={(e) => table.setPageSize(Number(e.target.value))}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
        <span aria-live="polite">
          Page {pageIndex + 1} of {pageCount}
        </span>
        <button
          type="button"
          className="dash-icon-btn"
          onClick={() => table.firstPage()}
          disabled={!table.getCanPreviousPage()}
          aria-label="First page"
        >
          <Icon name="chevronsLeft" size={16} />
        </button>
        <button
          type="button"
          className="dash-icon-btn"
          onClick={() => table.previousPage()}
          disabled={!table.getCanPreviousPage()}
          aria-label="Previous page"
        >
          <Icon name="chevronLeft" size={16} />
        </button>
        <button
          type="button"
          className="dash-icon-btn"
          onClick={() => table.nextPage()}
          disabled={!table.getCanNextPage()}
          aria-label="Next page"
        >
          <Icon name="chevronRight" size={16} />
        </button>
        <button
          type="button"
          className="dash-icon-btn"
          onClick={() => table.lastPage()}
          disabled={!table.getCanNextPage()}
          aria-label="Last page"
        >
          <Icon name="chevronsRight" size={16} />
        </button>
      </div>
    </nav>
  );
}
