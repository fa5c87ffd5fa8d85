/**
 * A small RFC 4180 CSV tokenizer that runs in the browser and in Node.
 *
 * Handles quoted fields with embedded commas, quotes (`""`) and line breaks, CRLF, LF and lone CR
 * line endings, and a leading UTF-8 byte-order mark. It is lenient where broker exports are sloppy:
 * a quote inside an unquoted field is kept as text, and text after a closing quote is appended.
 */

const BOM = '\uFEFF';

/** Removes a leading UTF-8 byte-order mark, if any. */
export function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/**
 * Splits CSV text into rows of raw cell strings. Cells are not trimmed; a final line break does
 * not produce an extra empty row.
 */
export function parseCsv(text: string): string[][] {
  const input = stripBom(text);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let inQuotes = false;
  let quotedCell = false;
  let i = 0;

  const endCell = (): void => {
    row.push(cell);
    cell = '';
    quotedCell = false;
  };
  const endRow = (): void => {
    endCell();
    rows.push(row);
    row = [];
  };

  while (i < input.length) {
    const ch = input[i];
    if (inQuotes) {
      if (ch === '"') {
        if (input[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        inQuotes = false;
      } else {
        cell += ch;
      }
      i += 1;
      continue;
    }
    if (ch === '"' && cell === '' && !quotedCell) {
      inQuotes = true;
      quotedCell = true;
    } else if (ch === ',') {
      endCell();
    } else if (ch === '\r' || ch === '\n') {
      endRow();
      if (ch === '\r' && input[i + 1] === '\n') i += 1;
    } else {
      cell += ch;
    }
    i += 1;
  }
  if (cell !== '' || row.length > 0 || quotedCell) endRow();
  return rows;
}

/** True when every cell of the row is empty or whitespace. */
export function isBlankRow(row: readonly string[]): boolean {
  return row.every((cell) => cell.trim() === '');
}

/**
 * Lines with any text on them (`\n`, `\r\n` or a lone `\r` ends one), counted in one pass
 * without splitting the text: how long a file is, before tokenising it.
 */
export function countFilledLines(text: string): number {
  let lines = 0;
  let filled = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10 || code === 13) {
      if (filled) lines += 1;
      filled = false;
    } else if (!filled && code > 32 && code !== 0xfeff) {
      filled = true;
    }
  }
  return filled ? lines + 1 : lines;
}
