/**
 * The one mail module for donor notifications: one file per message (or per kind, like a failed payment), one template, one context.
 * Add a message by writing `<name>.ts` that returns `render({...})` and sending it with `deliver`.
 */
export { type Block, render } from './template';
export { causeOf, giftFacts, type GiftFacts, type MailContext } from './facts';
export { receiptEmail } from './receipt';
export { refundNoticeEmail } from './refund-notice';
export { renewalFailedEmail } from './payment-failed';
export { monthlyChangedEmail } from './monthly-changed';
export { erasureCodeEmail } from './erasure-code';
export { declarationConfirmationEmail } from './declaration-confirmation';
export { notifyAfterEvent, sendReceipt, sendRefundNotice } from './notify';
export { mailContextOf } from './context';
export { supportRequestCopyEmail, supportRequestEmail } from './support-request';
