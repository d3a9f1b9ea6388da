import { useId } from 'react';

export const SUPPORT_MESSAGE_MAX = 280;

export type SupportChoice = { message: string; anonymous: boolean; hideAmount: boolean };
export const EMPTY_SUPPORT: SupportChoice = { message: '', anonymous: false, hideAmount: false };

/** The checkout body's fields for these choices (nothing when none was made). */
export function supportBody(choice: SupportChoice): { message?: string; anonymous?: boolean; hide_amount?: boolean } {
  const message = choice.message.trim();
  return {
    ...(message ? { message } : {}),
    ...(choice.anonymous ? { anonymous: true } : {}),
    ...(choice.hideAmount && message ? { hide_amount: true } : {}),
  };
}

/**
 * Optional message of support and "Give anonymously" (unticked by default): one choice that
 * decides whether the appeal's messages and its top donors show the donor's name or "Anonymous".
 */
export function SupportMessageFields({
  value,
  onChange,
  onAppeal,
}: {
  value: SupportChoice;
  onChange: (next: SupportChoice) => void;
  /** Messages are shown on appeal pages only; a campaign's gift carries its message to the charity. */
  onAppeal: boolean;
}) {
  const id = useId();
  const length = [...value.message].length;
  const over = length > SUPPORT_MESSAGE_MAX;
  return (
    <div className="support-message">
      <div className="field">
        <label htmlFor={`${id}-message`}>Message of support (optional)</label>
        <textarea
          id={`${id}-message`}
          rows={3}
          value={value.message}
          onChange={(e) => onChange({ ...value, message: e.target.value })}
          aria-describedby={`${id}-count`}
          aria-invalid={over || undefined}
          maxLength={SUPPORT_MESSAGE_MAX * 2}
        />
        <p className={over ? 'field-error' : 'field-hint'} id={`${id}-count`} aria-live="polite">
          {over
            ? `Please shorten your message to ${SUPPORT_MESSAGE_MAX} characters (${length} now).`
            : `${SUPPORT_MESSAGE_MAX - length} characters left. ${onAppeal ? 'Shown on the appeal page.' : 'The charity reads it with your gift.'}`}
        </p>
      </div>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={value.anonymous}
          onChange={(e) => onChange({ ...value, anonymous: e.target.checked })}
        />
        Give anonymously (show “Anonymous” instead of my name)
      </label>
      {value.message.trim() ? (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={value.hideAmount}
            onChange={(e) => onChange({ ...value, hideAmount: e.target.checked })}
          />
          Hide the amount next to my message
        </label>
      ) : null}
    </div>
  );
}

export const supportMessageTooLong = (choice: SupportChoice) => [...choice.message.trim()].length > SUPPORT_MESSAGE_MAX;
