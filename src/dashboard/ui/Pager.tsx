/**
 * Previous / Next for a list read a page at a time (the office's campaign lists, an appeal's
 * supporters): where the reader is, and two buttons that say how many they move by.
 */
export function Pager({
  label,
  info,
  step,
  hasPrevious,
  hasNext,
  onMove,
}: {
  /** Names the navigation: "Appeals pages". */
  label: string;
  /** Where the reader is: "Appeals 101–200". */
  info: string;
  step: number;
  hasPrevious: boolean;
  hasNext: boolean;
  /** -1 for Previous, +1 for Next. */
  onMove: (by: -1 | 1) => void;
}) {
  return (
    <nav className="dash-pagination" aria-label={label}>
      <p className="dash-pagination-info">{info}</p>
      <div className="dash-pagination-controls">
        <button
          type="button"
          className="btn btn-outline dash-btn-sm"
          disabled={!hasPrevious}
          onClick={() => onMove(-1)}
        >
          Previous {step}
        </button>
        <button type="button" className="btn btn-outline dash-btn-sm" disabled={!hasNext} onClick={() => onMove(1)}>
          Next {step}
        </button>
      </div>
    </nav>
  );
}
