import { parseHoldingsCsv } from '@app/common/holdings/import';
import type { UploadAccountChoice } from '@app/common/holdings/schemas';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../api/client.ts';
import { accountPickOf, accountPickProblem, type AccountPick } from './accountPick.ts';
import { FILE_TYPE_MESSAGE, holdingsFileKind } from './holdingsFile.ts';
import { readHoldingsFile, UnreadableFileError } from './readHoldingsFile.ts';
import {
  previewUpload,
  storeUpload,
  type SymbolOverride,
  type UnresolvedRow,
  type UploadPreview,
  type UploadRequest,
  type UploadSummary,
} from './uploadApi.ts';

/**
 * The upload dialog (docs/holdings.md#holdings-and-dashboard-screens): idle → file loaded →
 * validating → (preview) → uploading.
 */
export type UploadPhase = 'idle' | 'reading' | 'validating' | 'preview' | 'uploading';

export interface UploadProblem {
  message: string;
  details: readonly string[];
  /** The problem is the file's type: show what is accepted. */
  fileType?: boolean;
}

const UPLOAD_FAILED = 'Upload failed';

/**
 * The CSV dialog's state and steps. The first preview lists the rows to fix; every choice after it
 * (a stock picked, a row left out, another account) asks the server again, so the preview always
 * shows what the upload would add, change and remove, and in which account.
 */
export function useCsvUpload(onUploaded: (summary: UploadSummary) => void) {
  const [phase, setPhase] = useState<UploadPhase>('idle');
  const [file, setFile] = useState<File | null>(null);
  const [csv, setCsv] = useState('');
  const [preview, setPreview] = useState<UploadPreview | null>(null);
  /** The rows the first preview could not match: each is fixed with the search or left out. */
  const [toFix, setToFix] = useState<readonly UnresolvedRow[]>([]);
  const [fixProblems, setFixProblems] = useState<readonly string[]>([]);
  const [account, setAccount] = useState<AccountPick | null>(null);
  const [overrides, setOverrides] = useState<ReadonlyMap<number, SymbolOverride>>(new Map());
  const [skipped, setSkipped] = useState<ReadonlySet<number>>(new Set());
  const [refreshing, setRefreshing] = useState(false);
  const [problem, setProblem] = useState<UploadProblem | null>(null);
  const attempt = useRef(0);
  /** The choices the current preview answers, as a key; a change asks the server again. */
  const previewed = useRef('');

  const reset = useCallback(() => {
    setPhase('idle');
    setFile(null);
    setCsv('');
    setPreview(null);
    setToFix([]);
    setFixProblems([]);
    setAccount(null);
    setOverrides(new Map());
    setSkipped(new Set());
    setRefreshing(false);
    setProblem(null);
    previewed.current = '';
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
          setProblem(uploadProblem(parsed.error, parsed.details));
          setPhase('idle');
          return;
        }
        const result = await previewUpload({ csvData: text, overrides: [], skipLines: [] });
        if (!current()) return;
        const pick = accountPickOf(result);
        previewed.current = choicesKey(new Map(), new Set(), pick);
        setPreview(result);
        setToFix(result.unresolved);
        setFixProblems(result.problems);
        setAccount(pick);
        setPhase('preview');
      } catch (err) {
        if (!current()) return;
        setProblem(problemOf(err));
        setPhase('idle');
      }
    },
    [reset],
  );

  const request = useCallback(
    (forPreview: boolean): UploadRequest => ({
      csvData: csv,
      ...accountChoice(account, preview, forPreview),
      overrides: [...overrides.values()],
      skipLines: [...skipped].sort((a, b) => a - b),
    }),
    [csv, account, preview, overrides, skipped],
  );

  // Ask the server again when a choice changed since the preview it answered.
  const key = preview ? choicesKey(overrides, skipped, account) : '';
  useEffect(() => {
    if (!preview || phase !== 'preview' || key === previewed.current) return;
    const run = attempt.current;
    previewed.current = key;
    setRefreshing(true);
    previewUpload(request(true))
      .then((result) => {
        if (run === attempt.current && previewed.current === key) setPreview(result);
      })
      .catch((err: unknown) => {
        if (run === attempt.current) setProblem(problemOf(err));
      })
      .finally(() => {
        if (run === attempt.current && previewed.current === key) setRefreshing(false);
      });
  }, [key, preview, phase, request]);

  const setOverride = useCallback((line: number, override: SymbolOverride | null) => {
    setOverrides((prev) => {
      const next = new Map(prev);
      if (override) next.set(line, override);
      else next.delete(line);
      return next;
    });
  }, []);

  const setSkip = useCallback((line: number, skip: boolean) => {
    setSkipped((prev) => {
      const next = new Set(prev);
      if (skip) next.add(line);
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
      const summary = await storeUpload(request(false), preview.changes?.remove.length ?? 0);
      if (run !== attempt.current) return;
      onUploaded(summary);
    } catch (err) {
      if (run !== attempt.current) return;
      setProblem(problemOf(err));
      // The account may have changed since the preview: show what the upload would do now.
      if (err instanceof ApiError && err.status === 409) previewed.current = '';
      setPhase('preview');
    }
  }, [preview, request, onUploaded]);

  const unresolvedLeft = toFix.filter((row) => !overrides.has(row.line) && !skipped.has(row.line)).length;
  const accountProblem = preview && account ? accountPickProblem(account, preview) : null;
  const ready =
    phase === 'preview' &&
    !refreshing &&
    unresolvedLeft === 0 &&
    account !== null &&
    accountProblem === null &&
    preview?.target_account !== null &&
    (preview?.rows.length ?? 0) > 0;
  return {
    phase,
    file,
    preview,
    toFix,
    fixProblems,
    account,
    setAccount,
    accountProblem,
    overrides,
    setOverride,
    skipped,
    setSkip,
    refreshing,
    unresolvedLeft,
    ready,
    problem,
    dismissProblem: () => setProblem(null),
    chooseFile,
    removeFile,
    upload,
  };
}

/** The account to send: the picked one; a new account's name only for the import (its changes do not depend on it). */
function accountChoice(
  pick: AccountPick | null,
  preview: UploadPreview | null,
  forPreview: boolean,
): { account?: UploadAccountChoice } {
  if (!pick) return {};
  if (pick.kind === 'existing') return { account: { id: pick.id } };
  const name = forPreview ? (preview?.suggested_name ?? pick.name) : pick.name.trim();
  return name ? { account: { new_name: name } } : {};
}

function choicesKey(
  overrides: ReadonlyMap<number, SymbolOverride>,
  skipped: ReadonlySet<number>,
  pick: AccountPick | null,
): string {
  const fixes = [...overrides.values()].map((o) => `${o.line}=${o.exchange}:${o.symbol}`).sort();
  const target = pick ? (pick.kind === 'existing' ? pick.id : 'new') : '';
  return JSON.stringify([fixes, [...skipped].sort((a, b) => a - b), target]);
}

/**
 * A problem shown once: a lone problem (a missing column, a number out of range) comes as the
 * message and as the only detail too; the list then repeats nothing the message says.
 */
function uploadProblem(message: string, details: readonly string[]): UploadProblem {
  return { message, details: details.filter((detail) => detail !== message) };
}

function problemOf(err: unknown): UploadProblem {
  if (err instanceof ApiError) {
    // The server's own words, or the network failure; other failures without a text are 'Upload failed'.
    const message = err.fromServer || err.status === 0 ? err.message : UPLOAD_FAILED;
    return uploadProblem(message, err.status === 0 ? [] : err.details);
  }
  if (err instanceof UnreadableFileError) return { message: err.message, details: [] };
  console.warn('Upload failed', err);
  return { message: UPLOAD_FAILED, details: [] };
}
