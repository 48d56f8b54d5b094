export * from './campaigns.ts';
export * from './http.ts';
