/**
 * Readers of a route's search parameters (its `validateSearch`), without zod: the route tree is part of every first
 * page's code, and zod's core (about 14 KB brotli) was in every first page for these few checks alone. Each reader
 * answers `undefined` for a value it does not accept (as zod's `catch(optional(...), undefined)` did): a hand-edited
 * address drops the bad parameter, never fails. Pages check the values against the contracts before using them.
 */
import type { SearchSchemaInput } from "@tanstack/react-router";

export type Reader<T> = (value: unknown) => T | undefined;

/** Text of `min` to `max` characters, after `prepare` (trimming, upper-casing) when given. */
export const text =
  (
    max: number,
    { min = 1, prepare }: { min?: number; prepare?: (value: string) => string } = {},
  ): Reader<string> =>
  (value) => {
    if (typeof value !== "string") return undefined;
    const prepared = prepare ? prepare(value) : value;
    return prepared.length >= min && prepared.length <= max ? prepared : undefined;
  };

/** A whole number from `min` to `max`, from its digits in the address (read as zod's `coerce.number()` did). */
export const count =
  (min: number, max = Number.MAX_SAFE_INTEGER): Reader<number> =>
  (value) => {
    if (value === undefined) return undefined;
    const number = Number(value);
    return Number.isSafeInteger(number) && number >= min && number <= max ? number : undefined;
  };

/** A calendar date, `YYYY-MM-DD` (one that exists: no 2026-02-30). */
export const isoDate: Reader<string> = (value) => {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value ? value : undefined;
};

/** The reader's answer, or `fallback` when it has none. */
export const orElse =
  <T>(reader: Reader<T>, fallback: T) =>
  (value: unknown): T =>
    reader(value) ?? fallback;

/** One of a constant list's values. */
export const oneOf =
  <const T extends string>(values: readonly T[]): Reader<T> =>
  (value) =>
    (values as readonly unknown[]).includes(value) ? (value as T) : undefined;

/** An object of further values (read by the page itself), not a list. */
export const record: Reader<Record<string, unknown>> = (value) =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

type Shape = Record<string, (value: unknown) => unknown>;

/** What a route reads: a parameter whose reader may answer `undefined` is optional, one with a default is not. */
export type Read<S extends Shape> = {
  [K in keyof S as undefined extends ReturnType<S[K]> ? K : never]?: Exclude<ReturnType<S[K]>, undefined>;
} & { [K in keyof S as undefined extends ReturnType<S[K]> ? never : K]: ReturnType<S[K]> };

/**
 * A route's `validateSearch` from one reader per parameter: the parameters it reads, each as its reader answers
 * (those answering `undefined` left out); every other parameter dropped. A link may leave out any parameter.
 */
export function address<S extends Shape>(
  shape: S,
): (search: Partial<Read<S>> & SearchSchemaInput) => Read<S> {
  return (search) => {
    const given = search as Record<string, unknown>;
    const read: Record<string, unknown> = {};
    for (const [name, reader] of Object.entries(shape)) {
      const value = reader(given[name]);
      if (value !== undefined) read[name] = value;
    }
    return read as Read<S>;
  };
}
