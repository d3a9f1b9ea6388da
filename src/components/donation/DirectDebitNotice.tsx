import {
  DIRECT_DEBIT_FIRST_PAYMENT_DAYS,
  directDebitGuarantee,
  firstCollectionDate,
  formatLongUkDate,
  statementName,
} from '../../../domain';

/**
 * What a donor must be shown before setting up a Direct Debit: the charity's name as the bank
 * statement will show it, when the first payment is taken, and the Direct Debit Guarantee.
 */
export function DirectDebitNotice({ charityName, monthly }: { charityName: string; monthly: boolean }) {
  return (
    <div className="direct-debit-notice">
      <p>
        Your bank statement will show <strong>{statementName(charityName)}</strong>. The first payment is taken in about{' '}
        {DIRECT_DEBIT_FIRST_PAYMENT_DAYS} working days, on or about {formatLongUkDate(firstCollectionDate(new Date()))}
        {monthly ? ', then on the same day each month' : ''}; we email you the date and your mandate reference.
      </p>
      <details>
        <summary>The Direct Debit Guarantee</summary>
        {directDebitGuarantee(charityName).map((line) => (
          <p key={line}>{line}</p>
        ))}
      </details>
    </div>
  );
}
