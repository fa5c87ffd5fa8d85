// The whole suite: unit, API, realtime and browser tests. Root hooks boot shared services.
// Test files named on the command line (`npx mocha test/a.test.ts`) run alone; mocha would
// otherwise add them to the whole suite. An option's value (`--ignore=test/a.test.ts`) names none.
const namedFiles = process.argv.slice(2).some((arg) => !arg.startsWith('-') && /\.test\.ts$/.test(arg));

module.exports = {
  // Warn: a rejection between two files must not end a parallel worker (test/helpers/unhandled.ts).
  'node-option': ['import=tsx', 'unhandled-rejections=warn-with-error-code'],
  spec: namedFiles ? [] : ['test/**/*.test.ts'],
  ignore: ['test/soak/**'],
  require: ['test/helpers/root-hooks.ts'],
  timeout: 20000,
  'forbid-only': true,
  'forbid-pending': true,
  exit: true,
};
