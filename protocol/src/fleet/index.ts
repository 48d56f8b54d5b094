export * from './dashboard.ts';
export * from './http.ts';
