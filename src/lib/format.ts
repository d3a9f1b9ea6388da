export { formatPence, formatPenceShort, parsePounds, penceToPoundsField, percentRaised } from '../../domain/money';
