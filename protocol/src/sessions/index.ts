export * from './session.ts';
export * from './cost.ts';
export * from './scene-to-plan.ts';
export * from './http.ts';
export * from './send-size.ts';
