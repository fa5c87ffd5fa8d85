/** Rule math and validation shared by the client and the server (ARCHITECTURE §6, spec §5). */
export * from './types.ts';
export * from './trigger.ts';
export * from './messages.ts';
export * from './draft.ts';
export * from './wizard.ts';
export * from './tiers.ts';
export * from './describe.ts';
export * from './naming.ts';
export * from './price-guard.ts';
export * from './rearm.ts';
