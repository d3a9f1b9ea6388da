/**
 * Domain rules and constants shared by api/, src/ (server and islands) and db/. Browser-safe:
 * nothing here may import server code, Node or Workers APIs.
 */
export * from './charity';
export * from './dates';
export * from './email';
export * from './gift-aid';
export * from './limits';
export * from './money';
export * from './postcode';
export * from './statuses';
export * from './lifecycle';
