import { parseString } from 'fast-csv';

/** Tokenises CSV text into rows of cells with fast-csv (quotes, CRLF, embedded commas). */
export function csvRows(text: string): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const rows: string[][] = [];
    parseString<string[], string[]>(text.replace(/^\uFEFF/, ''), {
      headers: false,
      ignoreEmpty: true,
      trim: true,
      discardUnmappedColumns: false,
      strictColumnHandling: false,
    })
      .on('error', reject)
      .on('data', (row: string[]) => rows.push(row))
      .on('end', () => resolve(rows));
  });
}
