/** Figures as the bench reports print them (en thousands separators). */

/** A figure with exactly `digits` decimals; `–` for a missing one (NaN, Infinity). */
export const fmt = (value: number, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '–';

/** A figure with at most `digits` decimals (trailing zeros dropped); `n/a` for a missing one (bench/scale.ts). */
export const fmtUpTo = (value: number, digits = 0) =>
  Number.isFinite(value) ? value.toLocaleString('en', { maximumFractionDigits: digits }) : 'n/a';
