/** A rule's generated name, and whether an edit of its trigger renames it. */
import { describeRule } from './describe.ts';
import type { TriggerType, ValueType } from './types.ts';
import { BUILT_IN_TEMPLATES } from './wizard.ts';

interface Trigger {
  trigger_type: TriggerType;
  trigger_value: number;
  value_type: ValueType;
}

/** The names the app itself gives a rule with this trigger: its description, or a built-in template's. */
function generatedNames(rule: Trigger): string[] {
  const templates = BUILT_IN_TEMPLATES.filter(
    (t) =>
      t.trigger_type === rule.trigger_type &&
      t.value_type === rule.value_type &&
      t.trigger_value === rule.trigger_value,
  );
  return [describeRule(rule), ...templates.map((t) => t.name)];
}

/**
 * True when `name` is one the app gave a rule with this trigger ('Trailing stop loss 7%', '5% Fixed
 * Stop Loss'), not one the user typed: lists show it once, not again beside the rule's description.
 */
export function isGeneratedName(name: string, rule: Trigger): boolean {
  return generatedNames(rule).includes(name);
}

/**
 * A rule's name after its trigger is edited: the generated name of the new trigger when the
 * old name was a generated one ('Trailing stop loss 7%' set to 12 % becomes 'Trailing stop loss
 * 12%'; '5% Fixed Stop Loss' set to 8 % 'Fixed stop loss 8%'), else the name the user typed.
 */
export function renamedAfterEdit(name: string, before: Trigger, after: Trigger): string {
  return isGeneratedName(name, before) ? describeRule(after) : name;
}
