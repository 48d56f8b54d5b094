export * from './chat.ts';
export * from './messages.ts';
