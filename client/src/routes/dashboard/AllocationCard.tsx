import { formatInr } from '@app/common/format/money';
import { formatPercent } from '@app/common/format/percent';
import { lazy, Suspense, useState } from 'react';
import { sliceColour } from './allocationColours.ts';
import type { AllocationSlice, AllocationView } from './dashboardMath.ts';

const AllocationChart = lazy(() => import('./AllocationChart.tsx'));

/** Where the money is: a donut by holding or by broker account, with a legend that doubles as the data. */
export function AllocationCard({ slicesFor }: { slicesFor: (view: AllocationView) => AllocationSlice[] }) {
  const [view, setView] = useState<AllocationView>('holding');
  const slices = slicesFor(view);
  return (
    <section className="card allocation" aria-labelledby="allocation-title">
      <div className="allocation-head">
        <h2 id="allocation-title" className="card-title">
          Allocation
        </h2>
        <div className="segmented" role="group" aria-label="Group allocation by">
          <button type="button" aria-pressed={view === 'holding'} onClick={() => setView('holding')}>
            By holding
          </button>
          <button type="button" aria-pressed={view === 'account'} onClick={() => setView('account')}>
            By account
          </button>
        </div>
      </div>
      <div className="allocation-body">
        <div className="allocation-chart" aria-hidden="true">
          <Suspense fallback={<div className="chart-placeholder">Loading chart…</div>}>
            <AllocationChart slices={slices} />
          </Suspense>
        </div>
        <ul
          className="allocation-legend"
          aria-label={`Allocation ${view === 'holding' ? 'by holding' : 'by account'}`}
        >
          {slices.map((slice, index) => (
            <li key={slice.name}>
              <span
                className="legend-swatch"
                style={{ background: sliceColour(slice, index) }}
                aria-hidden="true"
              />
              <span className="legend-name">{slice.name}</span>
              <span className="legend-value numeric">{formatInr(slice.value, { fractionDigits: 0 })}</span>
              <span className="legend-percent numeric">
                {formatPercent(slice.percent, { fractionDigits: 1 })}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
