const FNV_OFFSET_BASIS = 0x811c9dc5;

/**
 * 32-bit FNV-1a: a stable seed from a string (normalized request, locator, ...). FNV-1a reads a string one character
 * at a time, so `hashString(b, hashString(a))` equals `hashString(a + b)`: a shared prefix is hashed once.
 */
export function hashString(text: string, prefixHash = FNV_OFFSET_BASIS): number {
  let hash = prefixHash;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A seeded source of numbers: the same seed always yields the same sequence. */
export interface Prng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
  /** An integer in [min, max]. */
  between(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: tiny, fast and good enough for plausible schedules and prices (not for secrets). */
class Mulberry32 implements Prng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }

  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }
}

export const prng = (seed: number): Prng => new Mulberry32(seed);

export const seeded = (...parts: readonly (string | number)[]): Prng => prng(hashString(parts.join("|")));
