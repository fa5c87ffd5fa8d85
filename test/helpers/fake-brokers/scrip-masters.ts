/**
 * The brokers' instrument masters served locally, in their real formats
 * (docs/live-prices.md#angel-one, #dhan): Angel One's `OpenAPIScripMaster.json` (a JSON array of
 * string-valued rows: `{"token":"3045","symbol":"SBIN-EQ","name":"SBIN","expiry":"",
 * "strike":"-1.000000","lotsize":"1","instrumenttype":"","exch_seg":"NSE","tick_size":"5.000000"}`,
 * indices with `instrumenttype` AMXIDX, derivatives on NFO) and Dhan's compact
 * `api-scrip-master.csv` (`SEM_EXM_EXCH_ID,SEM_SEGMENT,SEM_SMST_SECURITY_ID,…`). A test can hold
 * the answers back (a slow download), fail them (HTTP 500) or change the lists between reads.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One OpenAPIScripMaster.json row. */
export interface AngelScrip {
  token: string;
  symbol: string;
  name: string;
  expiry: string;
  strike: string;
  lotsize: string;
  instrumenttype: string;
  exch_seg: string;
  tick_size: string;
}

/** An equity row as Angel lists it: NSE symbols carry the series (`SBIN-EQ`), BSE ones do not. */
export function angelEquity(exchange: 'NSE' | 'BSE', name: string, token: string): AngelScrip {
  return {
    token,
    symbol: exchange === 'NSE' ? `${name}-EQ` : name,
    name,
    expiry: '',
    strike: '-1.000000',
    lotsize: '1',
    instrumenttype: '',
    exch_seg: exchange,
    tick_size: '5.000000',
  };
}

/** Rows Angel lists beside equities, which the feed must leave out. */
export const ANGEL_OTHER_ROWS: AngelScrip[] = [
  {
    ...angelEquity('NSE', 'NIFTY', '99926000'),
    symbol: 'Nifty 50',
    instrumenttype: 'AMXIDX',
    tick_size: '0.000000',
  },
  {
    ...angelEquity('NSE', 'SBIN', '35001'),
    symbol: 'SBIN26NOVFUT',
    expiry: '26NOV2026',
    lotsize: '750',
    instrumenttype: 'FUTSTK',
    exch_seg: 'NFO',
  },
];

/** The columns of Dhan's compact scrip master, in its order. */
const DHAN_COLUMNS = [
  'SEM_EXM_EXCH_ID',
  'SEM_SEGMENT',
  'SEM_SMST_SECURITY_ID',
  'SEM_INSTRUMENT_NAME',
  'SEM_EXPIRY_CODE',
  'SEM_TRADING_SYMBOL',
  'SEM_LOT_UNITS',
  'SEM_CUSTOM_SYMBOL',
  'SEM_EXPIRY_DATE',
  'SEM_STRIKE_PRICE',
  'SEM_OPTION_TYPE',
  'SEM_TICK_SIZE',
  'SEM_EXPIRY_FLAG',
  'SEM_EXCH_INSTRUMENT_TYPE',
  'SEM_SERIES',
  'SM_SYMBOL_NAME',
];

/** An equity line of Dhan's CSV (a company name with a comma is quoted, as Dhan does). */
export function dhanEquity(
  exchange: 'NSE' | 'BSE',
  symbol: string,
  securityId: string,
  company = `${symbol} LTD`,
): string {
  const name = company.includes(',') ? `"${company}"` : company;
  const series = exchange === 'NSE' ? 'EQ' : 'A';
  return `${exchange},E,${securityId},EQUITY,,${symbol},1.0,${company.replace(/,/g, '')},,,,5.0000,NA,ES,${series},${name}`;
}

/** Lines Dhan lists beside equities (an index, a future), which the feed must leave out. */
export const DHAN_OTHER_LINES = [
  'NSE,I,13,INDEX,,NIFTY,1.0,Nifty 50,,,,0.0500,NA,INDEX,NA,NIFTY 50',
  'NSE,D,52175,FUTSTK,0,HDFCBANK-Nov2026-FUT,550.0,HDFCBANK NOV FUT,2026-11-26 14:30:00,-0.01000,XX,10.0000,M,FUTSTK,NA,HDFC BANK LTD',
];

export interface FakeScripMasters {
  /** `ANGELONE_SCRIP_MASTER_URL` */
  angelUrl: string;
  /** `DHAN_SCRIP_MASTER_URL` */
  dhanUrl: string;
  angel: AngelScrip[];
  /** Dhan's CSV lines after the header. */
  dhan: string[];
  /** Downloads of each file so far. */
  reads: { angel: number; dhan: number };
  /** Answers this many next downloads with HTTP 500. */
  failNext: number;
  /** Holds every download until `release()`. */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

/** Starts the server of both masters on 127.0.0.1. */
export async function startFakeScripMasters(): Promise<FakeScripMasters> {
  let held: Array<() => void> | undefined;
  const state = {
    angel: [...ANGEL_OTHER_ROWS],
    dhan: [...DHAN_OTHER_LINES],
    reads: { angel: 0, dhan: 0 },
    failNext: 0,
  };
  const answer = (res: ServerResponse, type: string, body: string) => {
    if (state.failNext > 0) {
      state.failNext--;
      res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal Server Error</h1>');
    } else res.writeHead(200, { 'content-type': type }).end(body);
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    let reply: (() => void) | undefined;
    if (path === '/OpenAPI_File/files/OpenAPIScripMaster.json') {
      state.reads.angel++;
      reply = () => answer(res, 'application/json', JSON.stringify(state.angel));
    } else if (path === '/api-data/api-scrip-master.csv') {
      state.reads.dhan++;
      reply = () => answer(res, 'text/csv', [DHAN_COLUMNS.join(','), ...state.dhan].join('\n') + '\n');
    }
    if (!reply) return void res.writeHead(404).end();
    if (held) held.push(reply);
    else reply();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    angelUrl: `${base}/OpenAPI_File/files/OpenAPIScripMaster.json`,
    dhanUrl: `${base}/api-data/api-scrip-master.csv`,
    hold: () => void (held ??= []),
    release() {
      const waiting = held ?? [];
      held = undefined;
      for (const reply of waiting) reply();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
