export * from './errors.ts';
export * from './workers.ts';
export * from './health.ts';
export * from './http/index.ts';
