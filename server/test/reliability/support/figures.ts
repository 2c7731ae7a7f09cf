import fs from 'node:fs';
import path from 'node:path';
import type { Anomaly } from './history.ts';

const FILE = path.resolve('reports/reliability/figures.json');

/**
 * Prints a test's figures to the console and keeps them in reports/reliability/figures.json
 * (one entry per test, the latest run), for the README's table.
 */
export function printFigures(title: string, figures: Record<string, unknown>): void {
  const lines = Object.entries(figures).map(
    ([k, v]) => `        ${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`,
  );
  console.log(`      ┌ figures: ${title}\n${lines.join('\n')}`);
  let all: Record<string, unknown> = {};
  try {
    all = JSON.parse(fs.readFileSync(FILE, 'utf8')) as Record<string, unknown>;
  } catch {
    // first entry
  }
  all[title] = { ...figures, at: new Date().toISOString() };
  fs.mkdirSync(path.dirname(FILE), { recursive: true });
  fs.writeFileSync(FILE, `${JSON.stringify(all, null, 2)}\n`);
}

/** The first anomalies, readable, for an assertion message. */
export function describeAnomalies(anomalies: Anomaly[], max = 10): string {
  return anomalies
    .slice(0, max)
    .map((a) => `  - ${a.kind}: ${a.detail}`)
    .join('\n');
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const ms = (x: number) => Math.round(x);

/** Largest value (0 for none), without spreading a long array onto the stack. */
export function maxOf(values: number[]): number {
  let max = 0;
  for (const v of values) if (v > max) max = v;
  return max;
}
