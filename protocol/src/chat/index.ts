export * from './chat.ts';
export * from './messages.ts';
export * from './on-screen.ts';
export * from './marks.ts';
