import { cellsToCsv, csvFileProblem, holdingsFileKind, isZip, pickHoldingsSheet } from './holdingsFile.ts';

/** Why a file could not be read. */
export class UnreadableFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableFileError';
  }
}

/**
 * The holdings file as CSV text. A CSV is read as is, unless it is empty or a PDF renamed (refused
 * with a sentence that says so) or an XLSX renamed; an XLSX is opened in the browser with
 * read-excel-file (downloaded only now) and its holdings sheet turned into CSV.
 */
export async function readHoldingsFile(file: File): Promise<string> {
  const kind = holdingsFileKind(file.name, file.type);
  if (kind === 'csv') {
    const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
    const problem = csvFileProblem(head);
    if (problem) throw new UnreadableFileError(problem);
    if (!isZip(head)) return file.text();
  }
  const { default: readXlsxFile } = await import('read-excel-file/browser');
  let sheets;
  try {
    sheets = await readXlsxFile(file);
  } catch (err) {
    console.warn('Could not read the spreadsheet', err);
    throw new UnreadableFileError(
      'This spreadsheet could not be opened. Save it again as .xlsx or .csv and try once more.',
    );
  }
  const sheet = pickHoldingsSheet(sheets);
  if (!sheet) throw new UnreadableFileError('This spreadsheet has no sheets.');
  return cellsToCsv(sheet.data);
}
