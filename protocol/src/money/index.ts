export * from './money.ts';
export * from './http.ts';
