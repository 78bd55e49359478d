// A benchmark entry module (test/bench/*.bench.ts) default-exports a function returning rows.
// A ratio is the measured figure divided by its reference (the network's critical path or a
// peer library), so results stay comparable across machines; never a timed assertion.
export interface BenchRow {
  /** what was measured, e.g. "dns: ten types, 50 ms per answer" */
  entry: string;
  /** the measured figure with its unit, e.g. "61 ms" */
  figure: string;
  /** the target as written in the issue, e.g. "ratio <= 1.2" */
  target: string;
  /** the figure that the target judges */
  ratio: number;
  /** whether the ratio meets the target */
  pass: boolean;
  /** extra figures worth printing beside it (peers, memory) */
  notes?: string;
}

export type BenchEntry = () => Promise<BenchRow[]>;
