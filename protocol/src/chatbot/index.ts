export * from './chatbot.ts';
export * from './http.ts';
