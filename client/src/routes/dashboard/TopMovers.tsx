import { formatInr } from '@app/common/format/money';
import { instrumentKey } from '@app/common/market/tick-batch';
import { gainClass, signedPercent } from '../holdings/table/format.ts';
import type { Mover } from './dashboardMath.ts';

/** The day's top gainers and losers among the user's holdings (by day change %). */
export function TopMovers({ gainers, losers }: { gainers: Mover[]; losers: Mover[] }) {
  return (
    <section className="card top-movers" aria-labelledby="top-movers-title">
      <h2 id="top-movers-title" className="card-title">
        Today&apos;s movers
      </h2>
      {gainers.length === 0 && losers.length === 0 ? (
        <p className="text-muted">Day changes appear once today&apos;s prices arrive.</p>
      ) : (
        <div className="movers-grid">
          <MoverList title="Top gainers" movers={gainers} empty="No gainers yet today." />
          <MoverList title="Top losers" movers={losers} empty="No losers today." />
        </div>
      )}
    </section>
  );
}

function MoverList({ title, movers, empty }: { title: string; movers: Mover[]; empty: string }) {
  return (
    <div>
      <h3 className="movers-title">{title}</h3>
      {movers.length === 0 ? (
        <p className="text-muted">{empty}</p>
      ) : (
        <ol className="movers-list">
          {movers.map((m) => (
            <li key={instrumentKey(m.exchange, m.symbol)}>
              <span className="mover-symbol">
                {m.symbol} <span className="badge">{m.exchange}</span>
              </span>
              <span className="mover-figures">
                <span className="numeric">{formatInr(m.ltp)}</span>
                <span
                  className={`badge ${m.changePercent < 0 ? 'badge-loss' : 'badge-gain'} ${gainClass(m.changePercent)}`}
                >
                  {signedPercent(m.changePercent)}
                </span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
