export * from './names.ts';
export * from './result.ts';
export * from './models.ts';
export * from './channels.ts';
export * from './events.ts';
export type * from './bridge.ts';
export * from './wire.ts';
