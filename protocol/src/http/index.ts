export * from './endpoint.ts';
export * from './system.ts';
export * from './projects.ts';
export * from './users.ts';
export * from './members.ts';
export * from './billing.ts';
