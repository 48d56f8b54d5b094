export * from './overlays.ts';
