/** The ATRs the ATR stops being armed need, one per instrument and period (history/atr-of.ts). */
import { istDateOf } from '@app/common/market/calendar';
import { atrOf, type AtrSource } from '../history/atr-of.ts';
import { atrKey, type ArmRequest, type RuleAtrs } from './arm.ts';

/** ATR(n) on `now`'s IST day of each ATR request's instrument (nothing for the other value types). */
export async function loadRuleAtrs(
  source: AtrSource,
  requests: readonly Pick<ArmRequest, 'exchange' | 'symbol' | 'valueType' | 'atrPeriod'>[],
  now: Date,
): Promise<RuleAtrs> {
  const today = istDateOf(now);
  const atrs: RuleAtrs = new Map();
  for (const r of requests) {
    if (r.valueType !== 'ATR' || r.atrPeriod === null) continue;
    const key = atrKey(r);
    if (!atrs.has(key))
      atrs.set(
        key,
        await atrOf(source, { exchange: r.exchange, symbol: r.symbol, period: r.atrPeriod }, today),
      );
  }
  return atrs;
}
