export * from './guests.ts';
export * from './http.ts';
