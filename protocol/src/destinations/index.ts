export * from './catalogue.ts';
export * from './schemas.ts';
export * from './broadcast.ts';
export * from './events.ts';
export * from './http.ts';
export * from './local-stream.ts';
export * from './local-watch.ts';
