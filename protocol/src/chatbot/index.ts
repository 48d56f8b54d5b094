export * from './chatbot.ts';
export * from './http.ts';
export * from './raffles.ts';
