/** A donor's marketing consent and their right to erasure (docs/decisions/020). */

export const CONSENT_SOURCES = ['donation_box', 'sign_up', 'my_info'] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

/** Shown next to the unticked box, and stored word for word with each consent. */
export const MARKETING_CONSENT_WORDING =
  'Keep me updated by email about our work, new appeals and ways to help. You can withdraw at any time from My Info.';

export const ERASURE_OUTCOMES = ['pending', 'completed', 'expired', 'failed'] as const;
export type ErasureOutcome = (typeof ERASURE_OUTCOMES)[number];

/** Minutes the emailed erasure code is valid. */
export const ERASURE_CODE_MINUTES = 15;
