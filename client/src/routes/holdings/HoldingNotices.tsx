import { holdingNotice } from '@app/common/corporate-actions/describe';
import { useCorporateActions } from './useCorporateActions.ts';

/**
 * Corporate actions on a holding: a bonus or split says what was adjusted (or, for an imported
 * holding, that the broker's next file will bring the new quantity); rights, demergers and
 * buy-backs are told, levels unchanged.
 */
export function HoldingNotices({
  symbol,
  exchange,
  manual,
}: {
  symbol: string;
  exchange: string;
  manual: boolean;
}) {
  const actions = useCorporateActions(symbol, exchange);
  if (actions.length === 0) return null;
  return (
    <ul className="holding-notices" aria-label={`Corporate actions on ${symbol}`}>
      {actions.map((a) => (
        <li key={a.id} className="holding-notice" data-kind={a.kind}>
          {holdingNotice(a, { manual })}
        </li>
      ))}
    </ul>
  );
}
