import type { SymbolChange } from './types.ts';

/**
 * Renames a fresh install knows before its first symbol sync, so that a retired symbol typed by
 * hand or found in an old statement is stored under the current one. Each line is copied from
 * NSE's symbol-change file (symbolchange.csv, as of 2026-05-17); the new symbols are all in the
 * starter list. A sync with the exchange's file replaces them with the full history.
 */
export const STARTER_RENAMES: readonly SymbolChange[] = Object.freeze([
  { oldSymbol: 'ZOMATO', newSymbol: 'ETERNAL', companyName: 'ETERNAL LIMITED', changedOn: '2025-04-09' },
  {
    oldSymbol: 'TELCO',
    newSymbol: 'TATAMOTORS',
    companyName: 'Tata Motors Limited',
    changedOn: '2003-12-26',
  },
  {
    oldSymbol: 'TATAMOTORS',
    newSymbol: 'TMPV',
    companyName: 'Tata Motors Passenger Vehicles Limited',
    changedOn: '2025-10-24',
  },
  { oldSymbol: 'LTI', newSymbol: 'LTIM', companyName: 'LTIMindtree Limited', changedOn: '2022-12-05' },
  { oldSymbol: 'LTIM', newSymbol: 'LTM', companyName: 'LTM Limited', changedOn: '2026-02-27' },
  {
    oldSymbol: 'ADANITRANS',
    newSymbol: 'ADANIENSOL',
    companyName: 'Adani Energy Solutions Limited',
    changedOn: '2023-08-24',
  },
  {
    oldSymbol: 'MCDOWELL-N',
    newSymbol: 'UNITDSPR',
    companyName: 'United Spirits Limited',
    changedOn: '2024-06-07',
  },
  {
    oldSymbol: 'MOTHERSUMI',
    newSymbol: 'MOTHERSON',
    companyName: 'Samvardhana Motherson International Limited',
    changedOn: '2022-06-09',
  },
  {
    oldSymbol: 'SRTRANSFIN',
    newSymbol: 'SHRIRAMFIN',
    companyName: 'Shriram Finance Limited',
    changedOn: '2022-12-20',
  },
  {
    oldSymbol: 'CADILAHC',
    newSymbol: 'ZYDUSLIFE',
    companyName: 'Zydus Lifesciences Limited',
    changedOn: '2022-03-07',
  },
  {
    oldSymbol: 'TATAGLOBAL',
    newSymbol: 'TATACONSUM',
    companyName: 'TATA CONSUMER PRODUCTS LIMITED',
    changedOn: '2020-02-27',
  },
]);
