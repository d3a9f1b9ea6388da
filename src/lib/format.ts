export { formatPence, formatPenceShort, parsePounds, penceToPoundsField, percentRaised } from '../../domain/money';

const AND_LIST = new Intl.ListFormat('en-GB', { style: 'long', type: 'conjunction' });
/** "a title, a goal and an image": what a form still waits for, as a sentence says it. */
export const listInWords = (items: string[]): string => AND_LIST.format(items);
