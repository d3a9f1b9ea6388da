export * from './campaigns';
export * from './donations';
export * from './housekeeping';
export * from './organizations';
export * from './outbox';
export * from './users';
