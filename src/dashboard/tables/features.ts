import {
  columnFilteringFeature,
  columnVisibilityFeature,
  createFilteredRowModel,
  createPaginatedRowModel,
  createSortedRowModel,
  filterFn_includesString,
  globalFilteringFeature,
  rowPaginationFeature,
  rowSelectionFeature,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  sortFn_datetime,
  tableFeatures,
  type ColumnDef,
  type useTable,
} from '@tanstack/react-table';

export type DashColumnMeta = {
  label?: string;
  /**
   * What a click anywhere in this column's cell does instead of the row's link: 'inert' (nothing)
   * or a function of the row (e.g. open another record). The whole cell, not only its text.
   */
  cellClick?: 'inert' | ((row: any) => void);
};

/** One feature set for every dashboard table (TanStack Table v9 registers features explicitly). */
export const features = tableFeatures({
  columnFilteringFeature,
  globalFilteringFeature,
  rowSortingFeature,
  columnVisibilityFeature,
  rowSelectionFeature,
  rowPaginationFeature,
  filteredRowModel: createFilteredRowModel(),
  sortedRowModel: createSortedRowModel(),
  paginatedRowModel: createPaginatedRowModel(),
  filterFns: { includesString: filterFn_includesString },
  sortFns: { alphanumeric: sortFn_alphanumeric, basic: sortFn_basic, datetime: sortFn_datetime },
  // Type-only slot: scoped column meta (label for the column visibility menu).
  columnMeta: {} as DashColumnMeta,
});

export type Features = typeof features;
export type DashColumnDef<TData extends object> = ColumnDef<Features, TData, any>;
export const PAGE_SIZES = [10, 20, 30, 40, 50] as const;

/** A dashboard table instance: what the table, its pagination and its view options share. */
export type DashTable<TData extends object> = ReturnType<typeof useTable<Features, TData>>;
