/** Rule math and validation shared by the client and the server (docs/exit-rules.md). */
export * from './types.ts';
export * from './kinds.ts';
export * from './value-types.ts';
export * from './trigger.ts';
export * from './messages.ts';
export * from './draft.ts';
export * from './wizard.ts';
export * from './tiers.ts';
export * from './describe.ts';
export * from './naming.ts';
export * from './price-guard.ts';
export * from './rearm.ts';
export * from './notice.ts';
export * from './enabling.ts';
