import { replayFile } from '../../helpers/replay.ts';

/**
 * The replayed market of the rules end-to-end tests: RELIANCE falls through a fixed stop, TCS
 * rises then falls through its raised trailing stop, INFY rises to a target. All three stay at
 * 1000 for `flatBatches` batches first, time to sign in and arm the rules at 1000.
 */
export const REPLAY_MOVES: ReadonlyArray<readonly [reliance: number, tcs: number, infy: number]> = [
  [980, 1050, 1050], // TCS peak 1050: its 5% stop rises to 997.5
  [950, 1100, 1099], // RELIANCE at its stop 950 exactly; TCS peak 1100 raises its stop to 1045
  [940, 1080, 1100], // INFY reaches its 1100 target; RELIANCE already fired
  [930, 1046, 1120], // TCS above the raised stop: nothing
  [930, 1044, 1130], // TCS below the raised stop
  [900, 1000, 1150],
];

const SYMBOLS = ['RELIANCE', 'TCS', 'INFY'] as const;

/** The replay file: the flat batches, then {@link REPLAY_MOVES}. */
export function replayMarketCsv(flatBatches: number): string {
  const flat = Array.from({ length: flatBatches }, () => [1000, 1000, 1000] as const);
  return replayFile(
    [...flat, ...REPLAY_MOVES].flatMap((prices, t) =>
      SYMBOLS.map((symbol, k) => ({ time: `t${t}`, symbol, price: prices[k]!, prevClose: 1000 })),
    ),
  );
}
