export * from './money.ts';
export * from './http.ts';
export * from './charity.ts';
