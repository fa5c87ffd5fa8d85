/** The order `bhavcopy:sync` loads files in: by the trading day their names carry, oldest first. */
import path from 'node:path';

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/**
 * The day in a bhavcopy's name, `YYYY-MM-DD` (`BhavCopy_NSE_CM_0_0_0_20241015_F_0000.csv`,
 * `cm01APR2019bhav.csv`, `EQ100719.CSV`); null for a name in none of these.
 */
export function dateOfFileName(file: string): string | null {
  const name = path.basename(file).toUpperCase();
  let m = /_(\d{4})(\d{2})(\d{2})_F_/.exec(name);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^CM(\d{2})([A-Z]{3})(\d{4})BHAV/.exec(name);
  if (m && MONTHS.includes(m[2]!))
    return `${m[3]}-${String(MONTHS.indexOf(m[2]!) + 1).padStart(2, '0')}-${m[1]}`;
  m = /^EQ(\d{2})(\d{2})(\d{2})/.exec(name);
  if (m) return `20${m[3]}-${m[2]}-${m[1]}`;
  return null;
}

/** Files by the day in their names (then by name); names without a day last, by name. */
export function loadOrder(files: readonly string[]): string[] {
  const key = (f: string) => `${dateOfFileName(f) ?? '9999-99-99'} ${path.basename(f)}`;
  return [...files].sort((a, b) => key(a).localeCompare(key(b)));
}
