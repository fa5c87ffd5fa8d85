/** Display formatting shared by client and server: rupees, percentages and IST times. */
export { MISSING_VALUE, formatCompactInr, formatInr, formatSignedInr, type InrOptions } from './money.ts';
export { formatPercent, type PercentOptions } from './percent.ts';
export { IST_TIME_ZONE, formatIstDate, formatIstDateTime, formatIstTime, type Instant } from './ist.ts';
