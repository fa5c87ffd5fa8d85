/**
 * What a corporate action's PURPOSE text means (NSE's `bc` file). The exchange writes the same
 * event many ways (`BONUS 1:1`, `BONUS- 1:2`, `BON-1:1`, `FVSPLT FRM RS 10 TO RS 5`,
 * `FV SPLIT RS.10 TO RE.1`, `FACE VALUE SPLIT (SUB-DIVISION) - FROM RS 10/- PER SHARE TO RE 1/-
 * PER SHARE`, `BONUS1:2/FVSPLIT10TO2`), so reading is liberal: one PURPOSE may hold several
 * events (split on `/`), and each part is classified on its own. Pure; shared by the server
 * and the client.
 */

/** Events that change the price of a share: every level on the instrument is divided by the ratio. */
export const ADJUSTING_KINDS = ['BONUS', 'SPLIT'] as const;
/** Events shown as notices on the holding; levels are left alone. */
export const NOTICE_KINDS = ['RIGHTS', 'DEMERGER', 'BUYBACK'] as const;
export const CORPORATE_ACTION_KINDS = [...ADJUSTING_KINDS, ...NOTICE_KINDS] as const;

export type AdjustingKind = (typeof ADJUSTING_KINDS)[number];
export type CorporateActionKind = (typeof CORPORATE_ACTION_KINDS)[number];

export interface PurposeEvent {
  kind: CorporateActionKind;
  /**
   * Bonus a:b (a new shares for every b held): (a + b) / b. Split from ₹x to ₹y: x / y (a
   * consolidation, y > x, gives a ratio below 1). Null for notices.
   */
  ratio: number | null;
  /** The words the user reads: '1:1 bonus', 'split from ₹10 to ₹5', 'rights issue 45:301'. */
  terms: string;
}

const NUMBER = String.raw`(\d+(?:\.\d+)?)`;
const BONUS = new RegExp(
  String.raw`\bBON(?:US)?(?:\s*ISSUE)?(?:\s*(?:IN\s+)?(?:THE\s+)?RATIO)?(?:\s*OF)?[\s:.-]*${NUMBER}\s*:\s*${NUMBER}`,
);
const SPLIT_WORD = /(SPLIT|SPLT|SUB-?\s*DIVISION|CONSOLIDATION)/;
const SPLIT_AMOUNTS = new RegExp(String.raw`${NUMBER}\D*?TO\D*?${NUMBER}`);
const RIGHTS = new RegExp(String.raw`\bRIGHTS?\b(?:[^0-9]*${NUMBER}\s*:\s*${NUMBER})?`);
const DEMERGER = /\bDE-?\s*MERGER\b|SCHEME OF ARRANGEMENT/;
const BUYBACK = /\bBUY\s*-?\s*BACK\b/;

/** '10' for 10, '2.5' for 2.5: amounts as the exchange writes them. */
const amount = (n: number) => String(n);

function readBonus(part: string): PurposeEvent | undefined {
  const m = BONUS.exec(part);
  if (!m) return undefined;
  const a = Number(m[1]);
  const b = Number(m[2]);
  if (!(a > 0 && b > 0)) return undefined;
  return { kind: 'BONUS', ratio: (a + b) / b, terms: `${amount(a)}:${amount(b)} bonus` };
}

function readSplit(part: string): PurposeEvent | undefined {
  const word = SPLIT_WORD.exec(part);
  if (!word) return undefined;
  const m = SPLIT_AMOUNTS.exec(part.slice(word.index + word[0].length));
  if (!m) return undefined;
  const from = Number(m[1]);
  const to = Number(m[2]);
  if (!(from > 0 && to > 0) || from === to) return undefined;
  const verb = from > to ? 'split' : 'consolidation';
  return { kind: 'SPLIT', ratio: from / to, terms: `${verb} from ₹${amount(from)} to ₹${amount(to)}` };
}

function readNotice(part: string): PurposeEvent | undefined {
  const rights = RIGHTS.exec(part);
  if (rights) {
    const ratio = rights[1] && rights[2] ? ` ${amount(Number(rights[1]))}:${amount(Number(rights[2]))}` : '';
    return { kind: 'RIGHTS', ratio: null, terms: `rights issue${ratio}` };
  }
  if (DEMERGER.test(part)) return { kind: 'DEMERGER', ratio: null, terms: 'demerger' };
  if (BUYBACK.test(part)) return { kind: 'BUYBACK', ratio: null, terms: 'buy-back' };
  return undefined;
}

/** The events of one PURPOSE text (none for dividends, interest, redemptions, AGMs, …). */
export function readPurpose(purpose: string): PurposeEvent[] {
  const text = purpose.toUpperCase().replace(/\s+/g, ' ').trim();
  // '/' separates events ('BONUS1:2/FVSPLIT10TO2'); '/-' is part of an amount ('RS 10/-'). A
  // kind is counted once: the first of its parts wins.
  const events: PurposeEvent[] = [];
  for (const part of text.split(/\/(?!-)/)) {
    for (const event of [readBonus(part), readSplit(part), readNotice(part)]) {
      if (event && !events.some((e) => e.kind === event.kind)) events.push(event);
    }
  }
  return events;
}

/** The event of `kind` in a stored PURPOSE (how a stored action is described again). */
export function purposeEvent(purpose: string, kind: CorporateActionKind): PurposeEvent | undefined {
  return readPurpose(purpose).find((e) => e.kind === kind);
}

export function isAdjustingKind(kind: string): kind is AdjustingKind {
  return (ADJUSTING_KINDS as readonly string[]).includes(kind);
}
