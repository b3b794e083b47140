// A decider's refusal at the HTTP edge, over real HTTP: each kind answers exactly what the HTTP error deciders threw
// before (status, code, title, detail, and for invalid input one entry per field), through the one mapping.
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "@jest/globals";
import { pino } from "pino";
import { refuse } from "../refusal.ts";
import { createHttpApp } from "./app.ts";
import { Conflict, type DomainError, IllegalState, InvalidInput, NotFound } from "./errors.ts";
import { Csrf } from "./middleware.ts";
import { httpErrorOf } from "./refusals.ts";

const problems = [
  { pointer: "/credit_limit", detail: "must be zero or more minor units" },
  { pointer: "/exp_year", detail: "the card has expired" },
];
/** Each kind of refusal beside the HTTP error a decider threw for it before. */
const pairs: [string, Error, DomainError][] = [
  [
    "missing",
    refuse.missing("No such company", "company_not_found"),
    new NotFound("No such company", "company_not_found"),
  ],
  [
    "conflict",
    refuse.conflict("This locator is already taken", "locator_taken"),
    new Conflict("This locator is already taken", "locator_taken"),
  ],
  [
    "not_allowed",
    refuse.notAllowed("The time limit of this booking has passed", "time_limit_passed"),
    new IllegalState("The time limit of this booking has passed", "time_limit_passed"),
  ],
  ["invalid", refuse.invalid(problems), new InvalidInput(problems)],
];

async function answers(thrown: Error): Promise<{ status: number; body: unknown }> {
  const app = createHttpApp(
    { logger: pino({ level: "silent" }), csrf: new Csrf({ secret: "s", secureCookies: false }) },
    (a) => {
      a.get("/refused", () => {
        throw thrown;
      });
    },
  );
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/refused`);
    return { status: res.status, body: await res.json() };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("refusals at the HTTP edge", () => {
  it.each(pairs)("a %s refusal answers what its HTTP error answered", async (_kind, refusal, before) => {
    const now = await answers(refusal);
    expect(now).toEqual(await answers(before));
    expect(now.status).toBe(before.status);
  });

  it("a refusal carries no HTTP: its kind, code and reason only; the mapping gives the status and title", () => {
    const refusal = refuse.notAllowed(
      "The airline has not confirmed this booking yet",
      "provider_in_progress",
    );
    expect(refusal).toMatchObject({ kind: "not_allowed", code: "provider_in_progress" });
    expect(refusal).not.toHaveProperty("status");
    expect(refusal).not.toHaveProperty("title");
    expect(httpErrorOf(refusal).toApiErrors()).toEqual([
      {
        status: "422",
        code: "provider_in_progress",
        title: "Not allowed now",
        detail: "The airline has not confirmed this booking yet",
      },
    ]);
  });
});
