/** A type guard for one of a constant list's values (a catalogue key, a language), for values from outside. */
export const isOneOf =
  <const T>(values: readonly T[]) =>
  (value: unknown): value is T =>
    (values as readonly unknown[]).includes(value);
