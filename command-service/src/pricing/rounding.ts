/**
 * Money rounding, in one place. Amounts are integer minor units; anything that divides (a percentage, a currency
 * conversion, a proration) divides exactly in BigInt and rounds half away from zero to a whole minor unit.
 */

/** numerator / denominator, rounded half away from zero. */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError("division by zero");
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = (2n * n + d) / (2n * d);
  return negative ? -quotient : quotient;
}

export function assertMinorUnits(amount: number, what = "amount"): void {
  if (!Number.isSafeInteger(amount))
    throw new RangeError(`${what} must be integer minor units, got ${amount}`);
}

/** `bps` basis points (1 bp = 0.01 %) of an amount in minor units, e.g. 250 bps of 10,001 = 250.025 -> 250. */
export function percentOf(amount: number, bps: number): number {
  assertMinorUnits(amount);
  assertMinorUnits(bps, "basis points");
  return Number(divideHalfUp(BigInt(amount) * BigInt(bps), 10_000n));
}

/** amount * part / whole, for prorating a price by distance or by passengers. */
export function prorate(amount: number, part: number, whole: number): number {
  assertMinorUnits(amount);
  return Number(divideHalfUp(BigInt(amount) * BigInt(part), BigInt(whole)));
}

/**
 * An amount split in parts proportional to whole-number weights, the parts summing to it exactly: each part rounded
 * down, then the minor units left over go one each to the largest remainders (the earlier part on a tie).
 */
export function allocate(amount: number, weights: readonly number[]): number[] {
  assertMinorUnits(amount);
  const total = weights.reduce((sum, w) => sum + BigInt(w), 0n);
  if (total <= 0n) throw new RangeError("weights must sum to more than zero");
  const parts = weights.map((w) => (BigInt(amount) * BigInt(w)) / total);
  let left = BigInt(amount) - parts.reduce((sum, p) => sum + p, 0n);
  const remainders = weights
    .map((w, i) => ({ i, remainder: (BigInt(amount) * BigInt(w)) % total }))
    .sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1));
  for (const { i } of remainders) {
    if (left <= 0n) break;
    parts[i] = (parts[i] ?? 0n) + 1n;
    left -= 1n;
  }
  return parts.map(Number);
}
