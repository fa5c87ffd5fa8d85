/** The pages a notice opens: the holdings page (at the stock's row), Settings, History. */

/** The holdings page every alert links to; with `symbol`, at that stock. */
export function holdingsUrl(appUrl: string, symbol?: string): string {
  const page = `${appUrl.replace(/\/$/, '')}/holdings`;
  return symbol ? `${page}?symbol=${encodeURIComponent(symbol)}` : page;
}
