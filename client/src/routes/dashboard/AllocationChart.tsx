import { Cell, Pie, PieChart, ResponsiveContainer } from 'recharts';
import { sliceColour } from './allocationColours.ts';
import type { AllocationSlice } from './dashboardMath.ts';

/** The allocation donut (recharts, loaded on demand). The legend beside it carries the numbers. */
export default function AllocationChart({ slices }: { slices: AllocationSlice[] }) {
  return (
    <ResponsiveContainer width="100%" height={200}>
      {/* Decorative: the legend carries the numbers, so nothing in the chart takes focus. */}
      <PieChart accessibilityLayer={false}>
        <Pie
          data={slices}
          dataKey="value"
          nameKey="name"
          innerRadius="58%"
          outerRadius="95%"
          paddingAngle={1}
          stroke="var(--color-surface)"
          isAnimationActive={false}
          rootTabIndex={-1}
        >
          {slices.map((slice, index) => (
            <Cell key={slice.name} fill={sliceColour(slice, index)} />
          ))}
        </Pie>
      </PieChart>
    </ResponsiveContainer>
  );
}
