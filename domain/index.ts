/**
 * Domain rules and constants shared by api/, src/ (server and islands) and db/. Browser-safe:
 * nothing here may import server code, Node or Workers APIs.
 */
export * from './charity';
export * from './dates';
export * from './direct-debit';
export * from './email';
export * from './gift-aid';
export * from './limits';
export * from './money';
export * from './names';
export * from './postcode';
// domain/phone.ts is imported by path: it carries libphonenumber-js's metadata, which only the donor form needs.
export * from './statuses';
export * from './monthly-gifts';
export * from './privacy';
export * from './finance';
export * from './giving-ends';
export * from './giving-opens';
export * from './working-days';
