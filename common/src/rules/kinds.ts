/**
 * Rule kinds: one table (docs/exit-rules.md, "Rule kinds: one table"). Each kind of position rule
 * (its `trigger_type`), and each kind of price alert, has its traits here and nowhere else: the
 * side of the level it fires on, whether its level trails a peak, its code in the engine's slot
 * flags, and its names and words in labels, messages, notices and toasts. The level formula is
 * `computeTriggerPrice` (trigger.ts): the value type's formula (value-types.ts) measured from the
 * reference, or from the peak for a kind that trails, upwards for a kind that fires above.
 * The engine (server/src/triggers), the SQL built from it (server/src/triggers/kind-sql.ts), the
 * API's zod enum, the messages and the client all read this table: a new kind is one entry.
 */
import type { AlertDirection } from './types.ts';

/** What every kind of alert has, a rule or a price alert. */
export interface KindTraits {
  /** The side of the level the price crosses to fire: a stop fires when the price falls to it. */
  direction: AlertDirection;
  /** The kind's code in the low three bits of an engine slot's flags (1 to 7; 0 is a free slot). */
  code: number;
  /** Protects money (a stop loss): emailed even over the monthly quota. */
  protective: boolean;
  /** What fired, as History lists it: 'Fixed stop loss', 'Price above'. */
  label: string;
  /** A phone notification's few words: 'INFY stop loss hit'. */
  title: string;
  /** A toast's and the bell's title: 'Stop loss hit'. */
  hitTitle: string;
  /** A toast's colour: a stop (red), a profit target (green), or a plain notice. */
  tone: 'stop' | 'target' | 'notice';
  /** 'RELIANCE gapped through your stop loss', 'your stop loss is armed again'. */
  yours: string;
  /** 'at or below your stop loss at ₹2,310.00', '… your alert price of ₹1,600.00'. */
  levelName: string;
  /** One of them in a notice's sentence, and more than one: 'your stops in Zerodha …'. */
  noun: readonly [one: string, many: string];
}

/** What a position rule's kind has besides. */
export interface RuleKindTraits extends KindTraits {
  /** The level follows the highest price since arming (and only rises); else it stays where it was set. */
  trails: boolean;
  /** Its level in a refusal: 'The take profit level ₹412.50 is at or below the current price …'. */
  levelWord: string;
  /** Its place in the forms' choice of trigger type (the first is the default draft's). */
  formPosition: number;
  /** What the wizard says under the choice. */
  hint: string;
}

const RULE_KIND_TABLE = {
  FIXED_STOP_LOSS: {
    direction: 'below',
    trails: false,
    code: 1,
    protective: true,
    label: 'Fixed stop loss',
    title: 'stop loss',
    hitTitle: 'Stop loss hit',
    tone: 'stop',
    yours: 'your stop loss',
    levelName: 'your stop loss at',
    levelWord: 'stop loss',
    noun: ['stop', 'stops'],
    formPosition: 2,
    hint: "Measured from today's price and never moves; alerts when the price falls to it.",
  },
  TRAILING_STOP_LOSS: {
    direction: 'below',
    trails: true,
    code: 2,
    protective: true,
    label: 'Trailing stop loss',
    title: 'trailing stop',
    hitTitle: 'Trailing stop hit',
    tone: 'stop',
    yours: 'your trailing stop',
    levelName: 'your trailing stop at',
    levelWord: 'trailing stop',
    noun: ['stop', 'stops'],
    formPosition: 1,
    hint: 'Follows the highest price since you set it; alerts when the price falls back by this much.',
  },
  TAKE_PROFIT: {
    direction: 'above',
    trails: false,
    code: 3,
    protective: false,
    label: 'Take profit',
    title: 'profit target',
    hitTitle: 'Profit target reached',
    tone: 'target',
    yours: 'your profit target',
    levelName: 'your profit target at',
    levelWord: 'take profit',
    noun: ['profit target', 'profit targets'],
    formPosition: 3,
    hint: "Measured from today's price; alerts when the price rises to it, to book profits.",
  },
} as const satisfies Record<string, RuleKindTraits>;

/** A position rule's kind (`trigger_type`). */
export type TriggerType = keyof typeof RULE_KIND_TABLE;

/** The kinds of position rules, by `trigger_type`. */
export const RULE_KINDS: Readonly<Record<TriggerType, RuleKindTraits>> = Object.freeze(RULE_KIND_TABLE);

/** The trigger types, in the table's order (the API's enum). */
export const TRIGGER_TYPES = Object.freeze(Object.keys(RULE_KINDS)) as readonly [
  TriggerType,
  ...TriggerType[],
];

const priceAlert = {
  protective: false,
  title: 'price alert',
  hitTitle: 'Price alert',
  tone: 'notice',
  yours: 'your alert price',
  levelName: 'your alert price of',
  noun: ['price alert', 'price alerts'],
} as const;

/** The kinds of a price alert's execution (`trigger_type` PRICE_ABOVE or PRICE_BELOW). */
const PRICE_ALERT_KINDS = {
  PRICE_ABOVE: { ...priceAlert, direction: 'above', code: 4, label: 'Price above' },
  PRICE_BELOW: { ...priceAlert, direction: 'below', code: 5, label: 'Price below' },
} as const satisfies Record<string, KindTraits>;

/** `trigger_type` of an execution: a rule's kind, or a price alert's direction. */
export type ExecutionTriggerType = TriggerType | keyof typeof PRICE_ALERT_KINDS;

/** Every kind that can fire, a rule's or a price alert's. */
export const EXECUTION_KINDS: Readonly<Record<ExecutionTriggerType, KindTraits>> = Object.freeze({
  ...RULE_KINDS,
  ...PRICE_ALERT_KINDS,
});

/** The traits of an execution's `trigger_type` as stored (any text), or undefined for a kind not in the table. */
export function kindOf(triggerType: string): KindTraits | undefined {
  return Object.hasOwn(EXECUTION_KINDS, triggerType)
    ? EXECUTION_KINDS[triggerType as ExecutionTriggerType]
    : undefined;
}

/** The trigger types in the order the forms offer them: the trailing stop first. */
export const TRIGGER_CHOICES: readonly { value: TriggerType; label: string }[] = Object.freeze(
  [...TRIGGER_TYPES]
    .sort((a, b) => RULE_KINDS[a].formPosition - RULE_KINDS[b].formPosition)
    .map((value) => ({ value, label: RULE_KINDS[value].label })),
);

/** The price alert kind of a direction: PRICE_ABOVE or PRICE_BELOW. */
export function priceAlertKind(direction: AlertDirection): ExecutionTriggerType {
  return direction === 'above' ? 'PRICE_ABOVE' : 'PRICE_BELOW';
}

/** 'A', 'A or B', 'A, B or C'. */
function alternatives(items: readonly string[]): string {
  return items.length <= 1
    ? items.join('')
    : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** The API's refusal of an unknown trigger type: 'trigger_type must be FIXED_STOP_LOSS, … or TAKE_PROFIT'. */
export const TRIGGER_TYPE_MESSAGE = `trigger_type must be ${alternatives(TRIGGER_TYPES)}`;
