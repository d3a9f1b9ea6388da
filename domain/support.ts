/** Contact Support: the form's limits, shared by the dashboard and the API. */
export const SUPPORT_REQUEST_LIMITS = { name: 100, subject: 150, message: 5000 } as const;

/** Messages one account may send per hour (each one emails the charity and the sender). */
export const SUPPORT_REQUESTS_PER_HOUR = 5;

/** How soon the charity promises to reply (spec: 24-48 hours). */
export const SUPPORT_REPLY_PROMISE = 'We reply within 24-48 hours.';
