export * from './messages.ts';
export * from './roles.ts';
export * from './tracks.ts';
export * from './ice.ts';
