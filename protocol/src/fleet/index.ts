export * from './dashboard.ts';
export * from './http.ts';
export * from './worker-death.ts';
