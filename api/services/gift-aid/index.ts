export * from './adjustments';
export * from './claims';
export * from './declarations';
export * from './schedule';
export * from './offline';
export * from './checkout';
