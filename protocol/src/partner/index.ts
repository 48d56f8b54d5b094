export * from './profile.ts';
export * from './collaborators.ts';
export * from './channels.ts';
export * from './http.ts';
export * from './deletion.ts';
export * from './exports.ts';
export * from './applications.ts';
export * from './email-preferences.ts';
