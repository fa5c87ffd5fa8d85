import type { AllocationSlice } from './dashboardMath.ts';

/** Slice colours, in order; 'Others' is always grey. */
const SLICE_COLOURS = ['#1f3a93', '#3b82f6', '#0a7f3f', '#f59e0b', '#9333ea', '#0891b2', '#e11d48'];
const OTHERS_COLOUR = '#94a3b8';

export function sliceColour(slice: AllocationSlice, index: number): string {
  return slice.name === 'Others'
    ? OTHERS_COLOUR
    : (SLICE_COLOURS[index % SLICE_COLOURS.length] ?? OTHERS_COLOUR);
}
