export * from './creator-site.ts';
