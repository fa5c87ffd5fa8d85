import { formatIstDate, formatIstTime } from '@app/common/format/ist';
import { formatInr } from '@app/common/format/money';
import type { Exchange } from '@app/common/instruments/types';
import { instrumentKey } from '@app/common/market/tick-batch';
import { useEffect, useMemo, useState } from 'react';
import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { api } from '../../../api/client.ts';
import { usePriceSeries } from '../../../live/hooks.ts';
import { BAR_MS, mergeChartSeries, priceAxis, type ChartResponse } from './chartData.ts';

interface PriceChartProps {
  symbol: string;
  exchange: Exchange;
  avgPrice: number;
}

type Loaded = { key: string; chart: ChartResponse | null };

/**
 * A holding's price: today's minute bars (or recent daily closes) from
 * `GET /api/market/chart/:exchange/:symbol`, continued by the live prices of this session.
 * Loaded on demand (recharts stays out of the first download).
 */
export default function PriceChart({ symbol, exchange, avgPrice }: PriceChartProps) {
  const key = instrumentKey(exchange, symbol);
  const live = usePriceSeries(key);
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    api
      .get<ChartResponse>(`/market/chart/${exchange}/${encodeURIComponent(symbol)}`, {
        signal: controller.signal,
      })
      .then(
        (chart) => setLoaded({ key, chart: chart && Array.isArray(chart.bars) ? chart : null }),
        (err: unknown) => {
          if (controller.signal.aborted) return;
          console.info('No price bars; charting live prices only', err);
          setLoaded({ key, chart: null });
        },
      );
    return () => controller.abort();
  }, [key, exchange, symbol]);

  const chart = loaded?.key === key ? loaded.chart : null;
  const daily = chart?.interval === '1d';
  const points = useMemo(
    () => mergeChartSeries(chart?.bars ?? [], live, BAR_MS[daily ? '1d' : '1m']),
    [chart, live, daily],
  );

  if (loaded?.key !== key) return <div className="chart-placeholder">Loading chart…</div>;
  if (points.length < 2) {
    return (
      <div className="chart-placeholder">Collecting prices: the chart fills in as live prices arrive.</div>
    );
  }
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const shortSpan = last.t - first.t < 10 * 60_000;
  const tick = (t: number) =>
    daily ? formatIstDate(t).slice(0, 5) : formatIstTime(t, { seconds: shortSpan });
  const axis = priceAxis(points.map((point) => point.price));
  const priceTick = (value: number) => formatInr(value, { fractionDigits: axis.fractionDigits });
  // About 6.5 px per character at 11 px, plus the tick mark.
  const axisWidth = Math.max(
    48,
    Math.ceil(Math.max(...axis.ticks.map((v) => priceTick(v).length)) * 6.5) + 12,
  );
  const summary = `${symbol} price ${daily ? 'over recent days' : 'today'}: from ${formatInr(first.price)} to ${formatInr(last.price)}`;
  return (
    <figure className="price-chart">
      <div role="img" aria-label={summary} className="price-chart-canvas">
        <ResponsiveContainer width="100%" height={180}>
          <LineChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="var(--color-border)" strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="t"
              type="number"
              scale="time"
              domain={['dataMin', 'dataMax']}
              tickFormatter={tick}
              tick={{ fontSize: 11 }}
              minTickGap={24}
            />
            <YAxis
              domain={axis.domain}
              ticks={axis.ticks}
              interval={0}
              tickFormatter={priceTick}
              tick={{ fontSize: 11 }}
              width={axisWidth}
            />
            <Tooltip
              labelFormatter={(t) => (daily ? formatIstDate(Number(t)) : `${formatIstTime(Number(t))} IST`)}
              formatter={(value) => [formatInr(Number(value)), 'Price']}
            />
            {avgPrice > 0 ? (
              <ReferenceLine
                y={avgPrice}
                stroke="var(--color-text-subtle)"
                strokeDasharray="4 4"
                ifOverflow="discard"
                label={{ value: 'Buy', position: 'insideTopLeft', fontSize: 11 }}
              />
            ) : null}
            <Line
              type="linear"
              dataKey="price"
              stroke={last.price >= first.price ? 'var(--color-gain)' : 'var(--color-loss)'}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="field-hint">
        {chart && chart.bars.length > 0
          ? daily
            ? 'Recent daily closes, then live prices.'
            : "Today's minute closes, then every live price."
          : 'Prices received since you opened this page.'}
      </figcaption>
    </figure>
  );
}
