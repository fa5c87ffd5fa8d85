// `npm run test:soak` (not in CI): the 2,000-socket soak (SOAK_MINUTES, default 30; SOAK_SOCKETS,
// default 2000) and the long forms of the reliability and security tests (SOAK=1: 10 s Redis
// outage, the crashed server's claims left to expire by themselves).
process.env.SOAK = '1';
// Test files named on the command line run alone (see .mocharc.cjs).
const namedFiles = process.argv.slice(2).some((arg) => /\.test\.ts$/.test(arg));

module.exports = {
  'node-option': ['import=tsx'],
  spec: namedFiles
    ? []
    : ['test/soak/**/*.test.ts', 'test/reliability/**/*.test.ts', 'test/security/**/*.test.ts'],
  require: ['test/helpers/root-hooks.ts'],
  timeout: 120000,
  'forbid-only': true,
  'forbid-pending': true,
  exit: true,
};
