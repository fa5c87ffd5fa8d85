/** CSV lines as the exchanges and brokers write them: a cell quoted only where it must be, or always. */
export function csvLine(cells: readonly (string | number)[], options: { quoteAll?: boolean } = {}): string {
  return cells
    .map((cell) => {
      const text = String(cell);
      const quote = options.quoteAll || /[",\r\n\t]/.test(text);
      return quote ? `"${text.replaceAll('"', '""')}"` : text;
    })
    .join(',');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An ISO date as NSE's lists write it: `06-OCT-2008` (equity list, symbol changes) or `15-May-26` (SME, ETF). */
export function exchangeDate(iso: string, style: 'DD-MON-YYYY' | 'DD-Mon-YY'): string {
  const [year, month, day] = iso.split('-') as [string, string, string];
  const mon = MONTHS[Number(month) - 1]!;
  return style === 'DD-MON-YYYY' ? `${day}-${mon.toUpperCase()}-${year}` : `${day}-${mon}-${year.slice(2)}`;
}
