/**
 * Dhan's instrument list (`api-scrip-master.csv`: columns `SEM_EXM_EXCH_ID` NSE/BSE,
 * `SEM_SEGMENT` E for equity, `SEM_SMST_SECURITY_ID`, `SEM_TRADING_SYMBOL`, `SEM_INSTRUMENT_NAME`
 * EQUITY, `SEM_SERIES`, …) reduced to the feed's security id per instrument key. Rows are matched
 * by header name, so extra or reordered columns do no harm.
 */
import { instrumentKey } from '@app/common/market/tick-batch';

/** Splits one CSV line, honouring double quotes (names such as "TATA STEEL, LTD"). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted && char === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return cells.map((value) => value.trim());
}

/** Instrument key (`NSE:HDFCBANK`) → Dhan's security id (`1333`), from the scrip master's text. */
export function dhanSecurityIdsFromScripMaster(csv: string): Map<string, string> {
  const [header = '', ...lines] = csv.split(/\r?\n/);
  const columns = csvCells(header.replace(/^\uFEFF/, ''));
  const at = (name: string) => columns.indexOf(name);
  const [exchange, segment, securityId, symbol, instrument] = [
    at('SEM_EXM_EXCH_ID'),
    at('SEM_SEGMENT'),
    at('SEM_SMST_SECURITY_ID'),
    at('SEM_TRADING_SYMBOL'),
    at('SEM_INSTRUMENT_NAME'),
  ];
  const ids = new Map<string, string>();
  if ([exchange, segment, securityId, symbol].includes(-1)) return ids;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const cells = csvCells(line);
    const exchangeName = cells[exchange];
    if (cells[segment] !== 'E' || (exchangeName !== 'NSE' && exchangeName !== 'BSE')) continue;
    if (instrument !== -1 && cells[instrument] !== 'EQUITY') continue;
    const id = cells[securityId];
    const name = cells[symbol];
    if (id && name) ids.set(instrumentKey(exchangeName, name), id);
  }
  return ids;
}
