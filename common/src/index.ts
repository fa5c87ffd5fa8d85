/** Public surface of @app/common. */
export * from './format/index.ts';
