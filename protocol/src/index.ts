export * from './errors.ts';
export * from './workers.ts';
export * from './health.ts';
export * from './http/index.ts';
export * from './plans.ts';
export * from './scene/index.ts';
export * from './ws.ts';
export * from './account.ts';
