// The whole suite: unit, API, realtime and browser tests. Root hooks boot shared services.
module.exports = {
  'node-option': ['import=tsx'],
  spec: ['test/**/*.test.ts'],
  ignore: ['test/soak/**'],
  require: ['test/helpers/root-hooks.ts'],
  timeout: 20000,
  'forbid-only': true,
  'forbid-pending': true,
  exit: true,
};
