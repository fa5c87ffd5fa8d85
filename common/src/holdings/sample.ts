/**
 * The five-row template offered in the CSV upload dialog, in the generic template's column order
 * (Symbol, Quantity, Buy Price, Exchange).
 */
export const SAMPLE_CSV = [
  'Symbol,Quantity,Buy Price,Exchange',
  'RELIANCE,10,1285.50,NSE',
  'TCS,5,3420.00,NSE',
  'HDFCBANK,20,965.75,NSE',
  'INFY,15,1512.40,NSE',
  'ITC,100,412.30,NSE',
].join('\n');
