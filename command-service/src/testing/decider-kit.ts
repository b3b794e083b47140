import { expect } from "@jest/globals";
import { httpErrorOf } from "@skyward/infra/http/refusals";
import { Refusal } from "@skyward/infra/refusal";

/** A pure decider as its tests see it: what it decides from a state, and how its events fold into one. */
export interface Decider<Command, State, Event, Decided = Event> {
  decide: (command: Command, state: State) => Decided[];
  evolve: (state: State, event: Event) => State;
  initial: State;
  /** Checks each decided event beyond equality (its contract schema, say); throws when it does not hold. */
  check?: (event: Decided) => void;
}

/**
 * A decider's refusal as the client is answered it: the refusal (kind, code, reason) with the HTTP `status` the edge
 * maps it to (infra http/refusals.ts); anything else a decider threw as it is.
 */
export type Refused = Refusal & { status: number };

/** What a decider threw (a refusal with the HTTP status it answers), or null when it decided. */
export function refusal(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    if (error instanceof Refusal) return Object.assign(error, { status: httpErrorOf(error).status });
    return error;
  }
  return null;
}

/**
 * The one given/when/then kit of the deciders' tests: given(events) folded from the initial state, when(command),
 * then these events (each passing the decider's `check`) or a refusal with this code (and the HTTP status it answers).
 */
export function deciderKit<Command, State, Event, Decided = Event>(
  decider: Decider<Command, State, Event, Decided>,
) {
  return {
    given(...events: Event[]) {
      const state = events.reduce(decider.evolve, decider.initial);
      return {
        state,
        when: (command: Command) => ({
          /** The events decided: exactly these, each passing `check`. Answers them. */
          thenEvents(expected: Decided[]): Decided[] {
            const decided = decider.decide(command, state);
            expect(decided).toEqual(expected);
            if (decider.check) for (const e of decided) expect(() => decider.check?.(e)).not.toThrow();
            return decided;
          },
          /** Refused in domain terms (a Refusal, no HTTP in it) with this code, answering this HTTP status when given. */
          thenRefused(code: string, status?: number): void {
            const error = refusal(() => decider.decide(command, state));
            expect(error).toBeInstanceOf(Refusal);
            expect(error).toMatchObject(status === undefined ? { code } : { code, status });
          },
        }),
      };
    },
  };
}
