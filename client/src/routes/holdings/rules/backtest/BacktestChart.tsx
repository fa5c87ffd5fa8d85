import type { ApiBacktest } from '@app/common/api/backtest';
import { formatInr } from '@app/common/format/money';
import { useMemo } from 'react';
import { priceAxis } from '../../table/chartData.ts';
import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceDot,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

/** `2026-03-04` → `04/03/26`. */
const shortDate = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(2, 4)}`;

/**
 * The backtest's chart: each day's close, the level it was tested against (a dashed line, absent
 * while out of the stock) and a dot at each exit's price. Loaded on demand (recharts stays out of
 * the first download).
 */
export default function BacktestChart({ result, symbol }: { result: ApiBacktest; symbol: string }) {
  const axis = useMemo(
    () =>
      priceAxis(
        [
          ...result.series.flatMap((day) => (day.level === null ? [day.close] : [day.close, day.level])),
          ...result.fired.map((exit) => exit.price),
        ],
        4,
      ),
    [result],
  );
  const exits = result.fired.length;
  const summary =
    `${symbol} daily closes from ${shortDate(result.from)} to ${shortDate(result.to)}, with the rule's level` +
    (exits ? ` and ${exits} ${exits === 1 ? 'exit' : 'exits'}` : '');
  const priceTick = (value: number) => formatInr(value, { fractionDigits: axis.fractionDigits });
  return (
    <figure className="backtest-chart">
      <div role="img" aria-label={summary}>
        <ResponsiveContainer width="100%" height={160}>
          <LineChart data={result.series} margin={{ top: 6, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="var(--color-border)" strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="date" tickFormatter={shortDate} tick={{ fontSize: 11 }} minTickGap={32} />
            <YAxis
              domain={axis.domain}
              ticks={axis.ticks}
              interval={0}
              tickFormatter={priceTick}
              tick={{ fontSize: 11 }}
              width={64}
            />
            <Tooltip
              labelFormatter={(date) => shortDate(String(date))}
              formatter={(value, name) => [formatInr(Number(value)), name === 'level' ? 'Level' : 'Close']}
            />
            <Line
              type="linear"
              dataKey="close"
              stroke="var(--color-primary)"
              strokeWidth={1.5}
              dot={false}
              isAnimationActive={false}
            />
            <Line
              type="stepAfter"
              dataKey="level"
              stroke="var(--color-loss)"
              strokeDasharray="4 3"
              strokeWidth={1.5}
              dot={false}
              connectNulls={false}
              isAnimationActive={false}
            />
            {result.fired.map((exit) => (
              <ReferenceDot
                key={exit.date}
                x={exit.date}
                y={exit.price}
                r={4}
                fill="var(--color-loss)"
                stroke="var(--color-surface)"
                ifOverflow="extendDomain"
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="field-hint">
        Blue: the close each day. Red dashes: the rule’s level. Red dots: where it would have sold
        {result.fired.some((e) => e.gapped) ? ' (below the level on a day that opened lower)' : ''}.
      </figcaption>
    </figure>
  );
}
