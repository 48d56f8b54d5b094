export * from './render-plan.ts';
export * from './ipc.ts';
export * from './encoder-ladder.ts';
