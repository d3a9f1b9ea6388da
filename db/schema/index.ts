export * from './campaigns';
export * from './donations';
export * from './gift-aid';
export * from './organizations';
export * from './outbox';
export * from './users';
export * from './insight';
export * from './totals';
