import type { Column } from '@tanstack/react-table';
import { Icon } from '../ui/icons';
import type { Features } from './features';

/** Sortable header button; its label says the order, and the th carries aria-sort (data-table.tsx). */
export function DataTableColumnHeader<TData extends object>({
  column,
  title,
}: {
  column: Column<Features, TData, any>;
  title: string;
}) {
  if (!column.getCanSort()) return <span>{title}</span>;
  const sorted = column.getIsSorted();
  return (
    <button
      type="button"
      className="dash-sort-btn"
      onClick={(e) => {
        e.stopPropagation();
        column.toggleSorting(sorted === 'asc');
      }}
      aria-label={`${title}: ${sorted === 'asc' ? 'sorted ascending' : sorted === 'desc' ? 'sorted descending' : 'not sorted'}. Sort`}
    >
      {title}
      <Icon
        name={sorted === 'asc' ? 'chevronDown' : sorted === 'desc' ? 'chevronDown' : 'sort'}
        size={14}
        className={sorted === 'asc' ? 'dash-rot180' : undefined}
      />
    </button>
  );
}
