/**
 * Every benchmark, in run order. To add one: write bench/benchmarks/<id>.ts exporting a
 * `Benchmark` (bench/lib/types.ts) with a quick size, add it here, and add its quick test
 * under test/bench/.
 */
import type { Benchmark } from '../lib/types.ts';
import { b1 } from './b1.ts';
import { b10 } from './b10.ts';
import { b11 } from './b11.ts';
import { b12 } from './b12.ts';
import { b13 } from './b13.ts';
import { b14 } from './b14.ts';
import { b2 } from './b2.ts';
import { b3 } from './b3.ts';
import { b4 } from './b4.ts';
import { b5 } from './b5.ts';
import { b6 } from './b6.ts';
import { b7 } from './b7.ts';
import { b8 } from './b8.ts';
import { b9 } from './b9.ts';

export const BENCHMARKS: readonly Benchmark[] = [b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14];
