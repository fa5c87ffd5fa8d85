import type { Instrument } from './types.ts';

/** A seed instrument with an approximate price (rupees) for the simulated market to walk around. */
export interface StarterInstrument extends Instrument {
  basePrice: number;
}

type Row = readonly [symbol: string, name: string, isin: string, basePrice: number];

/**
 * NIFTY 100 constituents (NIFTY 50 then NIFTY Next 50) under their current NSE symbols, e.g.
 * ETERNAL (was ZOMATO), TMPV (was TATAMOTORS), LTM (was LTIM). Names and ISINs are taken from
 * NSE's EQUITY_L; base prices are rough late-2026 levels, not quotes.
 */
const NIFTY_100: readonly Row[] = [
  ['RELIANCE', 'Reliance Industries Limited', 'INE002A01018', 1480],
  ['TCS', 'Tata Consultancy Services Limited', 'INE467B01029', 3250],
  ['HDFCBANK', 'HDFC Bank Limited', 'INE040A01034', 1010],
  ['ICICIBANK', 'ICICI Bank Limited', 'INE090A01021', 1420],
  ['INFY', 'Infosys Limited', 'INE009A01021', 1580],
  ['BHARTIARTL', 'Bharti Airtel Limited', 'INE397D01024', 2080],
  ['SBIN', 'State Bank of India', 'INE062A01020', 960],
  ['ITC', 'ITC Limited', 'INE154A01025', 415],
  ['LT', 'Larsen & Toubro Limited', 'INE018A01030', 3950],
  ['KOTAKBANK', 'Kotak Mahindra Bank Limited', 'INE237A01036', 2150],
  ['HINDUNILVR', 'Hindustan Unilever Limited', 'INE030A01027', 2450],
  ['AXISBANK', 'Axis Bank Limited', 'INE238A01034', 1240],
  ['BAJFINANCE', 'Bajaj Finance Limited', 'INE296A01032', 1020],
  ['MARUTI', 'Maruti Suzuki India Limited', 'INE585B01010', 16200],
  ['SUNPHARMA', 'Sun Pharmaceutical Industries Limited', 'INE044A01036', 1780],
  ['TITAN', 'Titan Company Limited', 'INE280A01028', 3850],
  ['ASIANPAINT', 'Asian Paints Limited', 'INE021A01026', 2700],
  ['HCLTECH', 'HCL Technologies Limited', 'INE860A01027', 1650],
  ['WIPRO', 'Wipro Limited', 'INE075A01022', 255],
  ['ULTRACEMCO', 'UltraTech Cement Limited', 'INE481G01011', 12100],
  ['NTPC', 'NTPC Limited', 'INE733E01010', 345],
  ['POWERGRID', 'Power Grid Corporation of India Limited', 'INE752E01010', 295],
  ['TATASTEEL', 'Tata Steel Limited', 'INE081A01020', 175],
  ['M&M', 'Mahindra & Mahindra Limited', 'INE101A01026', 3650],
  ['ONGC', 'Oil & Natural Gas Corporation Limited', 'INE213A01029', 250],
  ['NESTLEIND', 'Nestle India Limited', 'INE239A01024', 1280],
  ['COALINDIA', 'Coal India Limited', 'INE522F01014', 395],
  ['ADANIENT', 'Adani Enterprises Limited', 'INE423A01024', 2450],
  ['ADANIPORTS', 'Adani Ports and Special Economic Zone Limited', 'INE742F01042', 1480],
  ['BAJAJFINSV', 'Bajaj Finserv Limited', 'INE918I01026', 2050],
  ['TECHM', 'Tech Mahindra Limited', 'INE669C01036', 1560],
  ['JSWSTEEL', 'JSW Steel Limited', 'INE019A01038', 1150],
  ['TMPV', 'Tata Motors Passenger Vehicles Limited', 'INE155A01022', 410],
  ['ETERNAL', 'Eternal Limited', 'INE758T01015', 310],
  ['APOLLOHOSP', 'Apollo Hospitals Enterprise Limited', 'INE437A01024', 7600],
  ['BAJAJ-AUTO', 'Bajaj Auto Limited', 'INE917I01010', 9100],
  ['BEL', 'Bharat Electronics Limited', 'INE263A01024', 420],
  ['CIPLA', 'Cipla Limited', 'INE059A01026', 1550],
  ['DRREDDY', "Dr. Reddy's Laboratories Limited", 'INE089A01031', 1280],
  ['EICHERMOT', 'Eicher Motors Limited', 'INE066A01021', 7100],
  ['GRASIM', 'Grasim Industries Limited', 'INE047A01021', 2850],
  ['HDFCLIFE', 'HDFC Life Insurance Company Limited', 'INE795G01014', 770],
  ['HINDALCO', 'Hindalco Industries Limited', 'INE038A01020', 820],
  ['INDIGO', 'InterGlobe Aviation Limited', 'INE646L01027', 5900],
  ['JIOFIN', 'Jio Financial Services Limited', 'INE758E01017', 310],
  ['MAXHEALTH', 'Max Healthcare Institute Limited', 'INE027H01010', 1150],
  ['SBILIFE', 'SBI Life Insurance Company Limited', 'INE123W01016', 2000],
  ['SHRIRAMFIN', 'Shriram Finance Limited', 'INE721A01047', 780],
  ['TATACONSUM', 'Tata Consumer Products Limited', 'INE192A01025', 1180],
  ['TRENT', 'Trent Limited', 'INE849A01020', 4500],
  ['ABB', 'ABB India Limited', 'INE117A01022', 5400],
  ['ADANIENSOL', 'Adani Energy Solutions Limited', 'INE931S01010', 980],
  ['ADANIGREEN', 'Adani Green Energy Limited', 'INE364U01010', 1050],
  ['ADANIPOWER', 'Adani Power Limited', 'INE814H01029', 150],
  ['AMBUJACEM', 'Ambuja Cements Limited', 'INE079A01024', 570],
  ['BAJAJHLDNG', 'Bajaj Holdings & Investment Limited', 'INE118A01012', 12500],
  ['BANKBARODA', 'Bank of Baroda', 'INE028A01039', 285],
  ['BOSCHLTD', 'Bosch Limited', 'INE323A01026', 38000],
  ['BPCL', 'Bharat Petroleum Corporation Limited', 'INE029A01011', 360],
  ['BRITANNIA', 'Britannia Industries Limited', 'INE216A01030', 5900],
  ['CANBK', 'Canara Bank', 'INE476A01022', 140],
  ['CGPOWER', 'CG Power and Industrial Solutions Limited', 'INE067A01029', 700],
  ['CHOLAFIN', 'Cholamandalam Investment and Finance Company Limited', 'INE121A01024', 1650],
  ['DABUR', 'Dabur India Limited', 'INE016A01026', 510],
  ['DIVISLAB', "Divi's Laboratories Limited", 'INE361B01024', 6500],
  ['DLF', 'DLF Limited', 'INE271C01023', 780],
  ['DMART', 'Avenue Supermarts Limited', 'INE192R01011', 4300],
  ['GAIL', 'GAIL (India) Limited', 'INE129A01019', 185],
  ['GODREJCP', 'Godrej Consumer Products Limited', 'INE102D01028', 1200],
  ['HAL', 'Hindustan Aeronautics Limited', 'INE066F01020', 4700],
  ['HAVELLS', 'Havells India Limited', 'INE176B01034', 1500],
  ['HEROMOTOCO', 'Hero MotoCorp Limited', 'INE158A01026', 5600],
  ['HINDZINC', 'Hindustan Zinc Limited', 'INE267A01025', 480],
  ['HYUNDAI', 'Hyundai Motor India Limited', 'INE0V6F01027', 2400],
  ['ICICIGI', 'ICICI Lombard General Insurance Company Limited', 'INE765G01017', 1980],
  ['INDHOTEL', 'The Indian Hotels Company Limited', 'INE053A01029', 760],
  ['INDUSINDBK', 'IndusInd Bank Limited', 'INE095A01012', 850],
  ['IOC', 'Indian Oil Corporation Limited', 'INE242A01010', 160],
  ['JINDALSTEL', 'Jindal Steel Limited', 'INE749A01030', 1050],
  ['LICI', 'Life Insurance Corporation of India', 'INE0J1Y01017', 920],
  ['LODHA', 'Lodha Developers Limited', 'INE670K01029', 1250],
  ['LTM', 'LTM Limited', 'INE214T01019', 5800],
  ['MAZDOCK', 'Mazagon Dock Shipbuilders Limited', 'INE249Z01020', 2900],
  ['MOTHERSON', 'Samvardhana Motherson International Limited', 'INE775A01035', 105],
  ['NAUKRI', 'Info Edge (India) Limited', 'INE663F01032', 1400],
  ['PFC', 'Power Finance Corporation Limited', 'INE134E01011', 410],
  ['PIDILITIND', 'Pidilite Industries Limited', 'INE318A01026', 1500],
  ['PNB', 'Punjab National Bank', 'INE160A01022', 120],
  ['RECLTD', 'REC Limited', 'INE020B01018', 390],
  ['SHREECEM', 'Shree Cement Limited', 'INE070A01015', 29000],
  ['SIEMENS', 'Siemens Limited', 'INE003A01024', 3200],
  ['SOLARINDS', 'Solar Industries India Limited', 'INE343H01029', 14500],
  ['TATAPOWER', 'Tata Power Company Limited', 'INE245A01021', 400],
  ['TMCV', 'Tata Motors Limited', 'INE1TAE01010', 380],
  ['TORNTPHARM', 'Torrent Pharmaceuticals Limited', 'INE685A01028', 3700],
  ['TVSMOTOR', 'TVS Motor Company Limited', 'INE494B01023', 3500],
  ['UNITDSPR', 'United Spirits Limited', 'INE854D01024', 1400],
  ['VBL', 'Varun Beverages Limited', 'INE200M01039', 480],
  ['VEDL', 'Vedanta Limited', 'INE205A01025', 500],
  ['ZYDUSLIFE', 'Zydus Lifesciences Limited', 'INE010B01027', 980],
];

/** Popular NSE ETFs; ISINs from NSE's eq_etfseclist. */
const POPULAR_ETFS: readonly Row[] = [
  ['NIFTYBEES', 'Nippon India ETF Nifty 50 BeES', 'INF204KB14I2', 290],
  ['BANKBEES', 'Nippon India ETF Nifty Bank BeES', 'INF204KB15I9', 600],
  ['GOLDBEES', 'Nippon India ETF Gold BeES', 'INF204KB17I5', 105],
  ['JUNIORBEES', 'Nippon India ETF Nifty Next 50 Junior BeES', 'INF732E01045', 780],
  ['LIQUIDBEES', 'Nippon India ETF Nifty 1D Rate Liquid BeES', 'INF732E01037', 1000],
  ['ITBEES', 'Nippon India ETF Nifty IT', 'INF204KB15V2', 42],
  ['SILVERBEES', 'Nippon India Silver ETF', 'INF204KC1402', 150],
  ['MON100', 'Motilal Oswal NASDAQ 100 ETF', 'INF247L01AP3', 230],
  ['MAFANG', 'Mirae Asset NYSE FANG+ ETF', 'INF769K01HF4', 140],
  ['CPSEETF', 'CPSE ETF', 'INF457M01133', 95],
  ['PSUBNKBEES', 'Nippon India ETF Nifty PSU Bank BeES', 'INF204KB16I7', 85],
  ['SETFNIF50', 'SBI Nifty 50 ETF', 'INF200KA1FS1', 280],
  ['NIFTYIETF', 'ICICI Prudential Nifty 50 ETF', 'INF109K012R6', 290],
  ['ICICIB22', 'Bharat 22 ETF', 'INF109KB15Y7', 115],
  ['MOM100', 'Motilal Oswal Nifty Midcap 100 ETF', 'INF247L01023', 62],
  ['HNGSNGBEES', 'Nippon India ETF Hang Seng BeES', 'INF204KB19I1', 480],
  ['PHARMABEES', 'Nippon India Nifty Pharma ETF', 'INF204KC1089', 24],
  ['AUTOBEES', 'Nippon India Nifty Auto ETF', 'INF204KC1337', 270],
  ['MID150BEES', 'Nippon India ETF Nifty Midcap 150', 'INF204KB1V68', 230],
  ['GOLDIETF', 'ICICI Prudential Gold ETF', 'INF109KC1NT3', 108],
  ['LIQUIDCASE', 'Zerodha Nifty 1D Rate Liquid ETF', 'INF0R8F01034', 107],
];

/**
 * BSE scrip codes of the largest companies. On BSE their Security Id equals the NSE symbol; name,
 * ISIN and base price are shared with the NSE entry.
 */
const BSE_SCRIP_CODES: Readonly<Record<string, string>> = {
  RELIANCE: '500325',
  TCS: '532540',
  HDFCBANK: '500180',
  ICICIBANK: '532174',
  INFY: '500209',
  BHARTIARTL: '532454',
  SBIN: '500112',
  ITC: '500875',
  LT: '500510',
  KOTAKBANK: '500247',
  HINDUNILVR: '500696',
  AXISBANK: '532215',
  BAJFINANCE: '500034',
  MARUTI: '532500',
  SUNPHARMA: '524715',
  TITAN: '500114',
  ASIANPAINT: '500820',
  HCLTECH: '532281',
  WIPRO: '507685',
  ULTRACEMCO: '532538',
  NTPC: '532555',
  POWERGRID: '532898',
  TATASTEEL: '500470',
  'M&M': '500520',
  ONGC: '500312',
  NESTLEIND: '500790',
  COALINDIA: '533278',
  ADANIPORTS: '532921',
  BAJAJFINSV: '532978',
  TECHM: '532755',
  TMPV: '500570',
  ETERNAL: '543320',
};

const nseEquity = ([symbol, name, isin, basePrice]: Row): StarterInstrument => ({
  exchange: 'NSE',
  symbol,
  name,
  isin,
  kind: 'EQUITY',
  series: 'EQ',
  basePrice,
});

const nseEtf = ([symbol, name, isin, basePrice]: Row): StarterInstrument => ({
  exchange: 'NSE',
  symbol,
  name,
  isin,
  kind: 'ETF',
  basePrice,
});

const nseStocks = NIFTY_100.map(nseEquity);

const bseStocks = nseStocks.flatMap((stock): StarterInstrument[] => {
  const scripCode = BSE_SCRIP_CODES[stock.symbol];
  if (scripCode === undefined) return [];
  return [{ ...stock, exchange: 'BSE', series: 'A', scripCode }];
});

/**
 * The instrument master a fresh install starts with, before the first symbol sync: NIFTY 100 and
 * popular ETFs on NSE, and the largest companies on BSE.
 */
export const STARTER_INSTRUMENTS: readonly StarterInstrument[] = Object.freeze([
  ...nseStocks,
  ...POPULAR_ETFS.map(nseEtf),
  ...bseStocks,
]);
