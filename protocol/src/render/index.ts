export * from './render-job.ts';
export * from './wanted-renders.ts';
