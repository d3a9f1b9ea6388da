export { formatPence, formatPenceShort, parsePounds, percentRaised } from '../../domain/money';
