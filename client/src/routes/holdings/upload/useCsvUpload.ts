import { parseHoldingsCsv } from '@app/common/holdings/import';
import { useCallback, useRef, useState } from 'react';
import { ApiError } from '../../../api/client.ts';
import { FILE_TYPE_MESSAGE, holdingsFileKind } from './holdingsFile.ts';
import { readHoldingsFile, UnreadableFileError } from './readHoldingsFile.ts';
import {
  previewAccountName,
  previewUpload,
  storeUpload,
  type SymbolOverride,
  type UploadPreview,
  type UploadSummary,
} from './uploadApi.ts';

/** Spec §4 CSV dialog: idle → file loaded → validating → (preview) → uploading. */
export type UploadPhase = 'idle' | 'reading' | 'validating' | 'preview' | 'uploading';

export interface UploadProblem {
  message: string;
  details: readonly string[];
  /** The problem is the file's type: show what is accepted. */
  fileType?: boolean;
}

const UPLOAD_FAILED = 'Upload failed';

/** The CSV dialog's state and steps. */
export function useCsvUpload(onUploaded: (summary: UploadSummary) => void) {
  const [phase, setPhase] = useState<UploadPhase>('idle');
  const [file, setFile] = useState<File | null>(null);
  const [csv, setCsv] = useState('');
  const [preview, setPreview] = useState<UploadPreview | null>(null);
  const [accountName, setAccountName] = useState('');
  const [overrides, setOverrides] = useState<ReadonlyMap<number, SymbolOverride>>(new Map());
  const [problem, setProblem] = useState<UploadProblem | null>(null);
  const attempt = useRef(0);

  const reset = useCallback(() => {
    setPhase('idle');
    setFile(null);
    setCsv('');
    setPreview(null);
    setOverrides(new Map());
    setProblem(null);
  }, []);

  const removeFile = useCallback(() => {
    attempt.current += 1;
    reset();
  }, [reset]);

  const chooseFile = useCallback(
    async (chosen: File) => {
      const run = ++attempt.current;
      const current = () => run === attempt.current;
      reset();
      if (!holdingsFileKind(chosen.name, chosen.type)) {
        setProblem({ message: FILE_TYPE_MESSAGE, details: [], fileType: true });
        return;
      }
      setFile(chosen);
      setPhase('reading');
      try {
        const text = await readHoldingsFile(chosen);
        if (!current()) return;
        setCsv(text);
        setPhase('validating');
        const parsed = parseHoldingsCsv(text);
        if (!parsed.ok) {
          setProblem({ message: parsed.error, details: parsed.details });
          setPhase('idle');
          return;
        }
        const result = await previewUpload(text);
        if (!current()) return;
        setPreview(result);
        setAccountName(previewAccountName(result));
        setPhase('preview');
      } catch (err) {
        if (!current()) return;
        setProblem(problemOf(err));
        setPhase('idle');
      }
    },
    [reset],
  );

  const setOverride = useCallback((line: number, override: SymbolOverride | null) => {
    setOverrides((prev) => {
      const next = new Map(prev);
      if (override) next.set(line, override);
      else next.delete(line);
      return next;
    });
  }, []);

  const upload = useCallback(async () => {
    if (!preview) return;
    const run = attempt.current;
    setProblem(null);
    setPhase('uploading');
    try {
      const summary = await storeUpload(csv, accountName, [...overrides.values()]);
      if (run !== attempt.current) return;
      onUploaded(summary);
    } catch (err) {
      if (run !== attempt.current) return;
      setProblem(problemOf(err));
      setPhase('preview');
    }
  }, [preview, csv, accountName, overrides, onUploaded]);

  const unresolvedLeft = preview ? preview.unresolved.filter((row) => !overrides.has(row.line)).length : 0;
  return {
    phase,
    file,
    preview,
    accountName,
    setAccountName,
    overrides,
    setOverride,
    unresolvedLeft,
    problem,
    dismissProblem: () => setProblem(null),
    chooseFile,
    removeFile,
    upload,
  };
}

function problemOf(err: unknown): UploadProblem {
  if (err instanceof ApiError) {
    // The server's own words, or the network failure; other failures without a text are 'Upload failed'.
    const message = err.fromServer || err.status === 0 ? err.message : UPLOAD_FAILED;
    return { message, details: err.status === 0 ? [] : err.details };
  }
  if (err instanceof UnreadableFileError) return { message: err.message, details: [] };
  console.warn('Upload failed', err);
  return { message: UPLOAD_FAILED, details: [] };
}
