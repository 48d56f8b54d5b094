export * from './events.ts';
export * from './alerts.ts';
