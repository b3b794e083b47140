/** The default of a switch that covers every case: a new case fails to compile there, and at run time throws. */
export function assertNever(value: never): never {
  throw new Error(`unhandled ${JSON.stringify(value)}`);
}
