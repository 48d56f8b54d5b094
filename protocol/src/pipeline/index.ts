export * from './render-plan.ts';
export * from './ipc.ts';
