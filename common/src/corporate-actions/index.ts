export * from './bc-file.ts';
export * from './describe.ts';
export * from './purpose.ts';
