import { useEffect, useRef, useState } from 'react';
import { Icon } from '../ui/icons';
import type { DashTable } from './features';

/** Column visibility menu; the spec labels it 'Bulk actions' on some mock screens. */
export function DataTableViewOptions<TData extends object>({
  table,
  label = 'View',
}: {
  table: DashTable<TData>;
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);
  const columns = table.getAllLeafColumns().filter((c) => c.getCanHide());
  return (
    <div className="dash-menu" ref={ref}>
      <button
        type="button"
        className="btn btn-outline dash-btn-sm"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        {label} <Icon name="chevronDown" size={14} />
      </button>
      {open ? (
        <div className="dash-menu-pop" role="group" aria-label="Toggle columns">
          {columns.map((column) => (
            <label key={column.id} className="dash-menu-check">
              <input
                type="checkbox"
                checked={column.getIsVisible()}
                onChange={(e) => column.toggleVisibility(e.target.checked)}
              />
              {String(column.columnDef.meta?.label ?? column.id)}
            </label>
          ))}
        </div>
      ) : null}
    </div>
  );
}
