export * from './ingest.ts';
export * from './http.ts';
