export * from './endpoint.ts';
export * from './system.ts';
