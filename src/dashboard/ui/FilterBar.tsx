import { type InputHTMLAttributes, type ReactNode, useId, useState } from 'react';
import { download } from '../../lib/api';
import { $dashToken } from '../session';
import { Icon } from './icons';
import type { Option } from './primitives';

const joined = (...classes: (string | undefined | false)[]) => classes.filter(Boolean).join(' ');

/**
 * The search-and-filter bar above a list: its filters in a row, a line for a problem with them, then
 * "Clear filters" while any is set, "Export CSV", any other action, and how the export went.
 * `foldOnPhones`: on a narrow screen only the first filter (the search box) shows until "Show
 * filters" is pressed, so a long bar does not push the list a screen down; `foldedInUse`: a filter
 * behind the fold is set, which the folded toggle says.
 */
export function FilterBar({
  label,
  children,
  problem,
  active = false,
  foldOnPhones = false,
  foldedInUse = false,
  onClear,
  onExport,
  exportIcon = false,
  moreActions,
  note,
  exportStatus,
}: {
  label: string;
  children: ReactNode;
  problem?: ReactNode;
  active?: boolean;
  foldOnPhones?: boolean;
  foldedInUse?: boolean;
  onClear?: () => void;
  onExport: () => void;
  exportIcon?: boolean;
  moreActions?: ReactNode;
  /** A line under the actions, about what they export. */
  note?: ReactNode;
  exportStatus: ReactNode;
}) {
  const [unfolded, setUnfolded] = useState(false);
  const filtersId = useId();
  const folded = foldOnPhones && !unfolded;
  return (
    <div className="dash-list-toolbar" role="search" aria-label={label}>
      <div id={filtersId} className={joined('dash-list-filters', folded && 'dash-list-filters-folded')}>
        {children}
      </div>
      {problem}
      <div className="dash-list-actions">
        {foldOnPhones ? (
          <button
            type="button"
            className="btn btn-outline dash-btn-sm dash-filters-toggle"
            aria-expanded={!folded}
            aria-controls={filtersId}
            onClick={() => setUnfolded((open) => !open)}
          >
            {folded ? (foldedInUse ? 'Show filters (in use)' : 'Show filters') : 'Hide filters'}
          </button>
        ) : null}
        {active && onClear ? (
          <button type="button" className="btn btn-outline dash-btn-sm" onClick={onClear}>
            Clear filters
          </button>
        ) : null}
        <button type="button" className="btn btn-outline dash-btn-sm" onClick={onExport}>
          {exportIcon ? (
            <>
              <Icon name="download" size={16} /> Export CSV
            </>
          ) : (
            'Export CSV'
          )}
        </button>
        {moreActions}
        <p className="dash-export-status" role="status">
          {exportStatus}
        </p>
      </div>
      {note}
    </div>
  );
}

/** The wide search box of a filter bar; `onApply` runs on Enter (and on leaving the box, with `applyOnBlur`). */
export function FilterSearch({
  label = 'Search',
  placeholder,
  maxLength = 40,
  value,
  onChange,
  onApply,
  applyOnBlur = false,
}: {
  label?: string;
  placeholder: string;
  maxLength?: number;
  value: string;
  onChange: (value: string) => void;
  onApply: () => void;
  applyOnBlur?: boolean;
}) {
  return (
    <FilterInput
      label={label}
      fieldClassName="dash-filter-search"
      type="search"
      placeholder={placeholder}
      maxLength={maxLength}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onApply={onApply}
      applyOnBlur={applyOnBlur}
    />
  );
}

/** From and To days; `problemId` names the message shown when To is before From. */
export function FilterDates({
  from,
  to,
  onFrom,
  onTo,
  fromLabel = 'From',
  problemId,
}: {
  from: string;
  to: string;
  onFrom: (value: string) => void;
  onTo: (value: string) => void;
  fromLabel?: string;
  problemId?: string;
}) {
  const inverted = Boolean(from && to && to < from);
  return (
    <>
      <FilterInput label={fromLabel} type="date" value={from} onChange={(e) => onFrom(e.target.value)} />
      <FilterInput
        label="To"
        type="date"
        value={to}
        min={problemId ? from || undefined : undefined}
        onChange={(e) => onTo(e.target.value)}
        aria-invalid={(problemId && inverted) || undefined}
        aria-describedby={problemId && inverted ? problemId : undefined}
      />
    </>
  );
}

type FilterInputProps = {
  label: string;
  /** Class of the field around the box (`dash-filter-search` for the wide search box). */
  fieldClassName?: string;
  /** Applies the box's text: on Enter, and on leaving the box with `applyOnBlur`. */
  onApply?: () => void;
  applyOnBlur?: boolean;
  /** The label beside the box rather than above it. */
  inline?: boolean;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'onKeyDown' | 'onBlur'>;

/** A small labelled text, search or date box of a filter bar. */
export function FilterInput({
  label,
  fieldClassName,
  className,
  onApply,
  applyOnBlur,
  inline,
  ...input
}: FilterInputProps) {
  const id = useId();
  return (
    <div className={joined(inline ? 'dash-inline-field' : 'dash-field', fieldClassName)}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className={joined('dash-input dash-input-sm', className)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onApply?.();
        }}
        onBlur={applyOnBlur ? onApply : undefined}
        {...input}
      />
    </div>
  );
}

/** A small labelled select of a filter bar; `any` names the empty choice (no filter). */
export function FilterSelect({
  label,
  value,
  onChange,
  any,
  options,
  disabled,
  names = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  any: string;
  options: Option[];
  disabled?: boolean;
  /** Options are names that arrive after the page (campaigns, appeals): a fixed width, so the bar does not reflow when they come. */
  names?: boolean;
}) {
  const id = useId();
  return (
    <div className="dash-field">
      <label htmlFor={id}>{label}</label>
      <SmallSelect
        id={id}
        value={value}
        onChange={onChange}
        options={[{ value: '', label: any }, ...options]}
        disabled={disabled}
        names={names}
      />
    </div>
  );
}

function SmallSelect({
  id,
  value,
  onChange,
  options,
  disabled,
  names = false,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly Option[];
  disabled?: boolean;
  names?: boolean;
}) {
  return (
    <select
      id={id}
      className={names ? 'dash-input dash-input-sm dash-select-names' : 'dash-input dash-input-sm'}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      disabled={disabled}
    >
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** A select with its label beside it, for a page's header (a list's status, say). */
export function InlineSelect<Value extends string>({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: Value;
  onChange: (value: Value) => void;
  options: readonly { value: Value; label: string }[];
}) {
  const id = useId();
  return (
    <div className="dash-inline-field">
      <label htmlFor={id}>{label}</label>
      <SmallSelect
        id={id}
        value={value}
        onChange={(v) => onChange(options.find((o) => o.value === v)?.value ?? value)}
        options={options}
      />
    </div>
  );
}

/** Downloads a CSV the API writes, telling how it went in a status line. */
export function useCsvDownload() {
  const [status, setStatus] = useState<string | null>(null);
  async function save(path: string, name: string) {
    setStatus('Preparing your CSV…');
    const saved = await download(path, name, { token: $dashToken.get() });
    setStatus(saved.ok ? `Downloaded ${saved.data.name}.` : saved.error.message);
  }
  return { save, status };
}
