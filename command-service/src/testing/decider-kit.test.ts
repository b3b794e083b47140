// The deciders' given/when/then kit holds its tests to what they say: a wrong event list, an event its check
// refuses, a decision where a refusal was expected, or a refusal of another code, kind or status all fail.
import { describe, expect, it } from "@jest/globals";
import { Conflict } from "@skyward/infra/http/errors";
import { refuse } from "@skyward/infra/refusal";
import { deciderKit, refusal } from "./decider-kit.ts";

type Counted = { type: "Counted"; n: number };
/**
 * Counts up to three; a count past three is refused (a conflict: 409 at the edge), a count of zero is not a count (a
 * plain Error), and a count of ten is refused the old way, with an HTTP error, which the kit no longer takes.
 */
const counter = deciderKit<{ by: number }, number, Counted>({
  decide: ({ by }, total) => {
    if (by === 0) throw new Error("zero");
    if (by === 10) throw new Conflict("Too many", "too_many");
    if (total + by > 3) throw refuse.conflict("Too many", "too_many");
    return [{ type: "Counted", n: by }];
  },
  evolve: (total, e) => total + e.n,
  initial: 0,
  check: (e) => {
    if (e.n === 2) throw new Error("two is never written");
  },
});
const counted = (n: number): Counted => ({ type: "Counted", n });

describe("the decider kit", () => {
  it("when the events decided are those expected and pass the check, then it answers them; otherwise it fails", () => {
    expect(counter.given(counted(1)).state).toBe(1);
    expect(
      counter
        .given(counted(1))
        .when({ by: 1 })
        .thenEvents([counted(1)]),
    ).toEqual([counted(1)]);
    expect(() => counter.given().when({ by: 1 }).thenEvents([])).toThrow();
    expect(() =>
      counter
        .given()
        .when({ by: 2 })
        .thenEvents([counted(2)]),
    ).toThrow();
  });

  it("when a refusal is expected, then only a domain Refusal of that code (answering that status) passes", () => {
    counter.given(counted(3)).when({ by: 1 }).thenRefused("too_many", 409);
    counter.given(counted(3)).when({ by: 1 }).thenRefused("too_many");
    expect(() => counter.given(counted(3)).when({ by: 1 }).thenRefused("too_many", 422)).toThrow();
    expect(() => counter.given(counted(3)).when({ by: 1 }).thenRefused("other")).toThrow();
    expect(() => counter.given().when({ by: 1 }).thenRefused("too_many")).toThrow();
    expect(() => counter.given().when({ by: 0 }).thenRefused("zero")).toThrow();
    expect(refusal(() => 1)).toBeNull();
    expect(refusal(() => counter.given(counted(3)).when({ by: 1 }).thenEvents([]))).not.toBeNull();
    expect(() => counter.given().when({ by: 10 }).thenRefused("too_many", 409)).toThrow();
  });
});
