// The answer check every test app runs (issue 22): a route that answers what its contract in `contracts` does not
// describe fails the call that made it. Shown here on an Express app whose routes answer on purpose what they
// should not, over real HTTP; the routes are the documented paths, so the check reads their real contracts.

import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import express from "express";
import { answerCheck } from "./answer-check.ts";

const check = answerCheck();
let server: Server;
let base: string;
/** What the next call's route answers: its status and body. */
let next: { status: number; body: unknown };

beforeAll(async () => {
  const app = express();
  app.use(check.middleware);
  const answer: express.RequestHandler = (_req, res) => void res.status(next.status).json(next.body);
  const router = express.Router();
  router.delete("/bookings/:locator", answer);
  router.post("/bookings/comment", answer);
  router.delete("/sign_out", answer);
  app.use(router);
  app.get("/csrf", answer);
  server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const call = async (method: string, path: string, status: number, body: unknown) => {
  next = { status, body };
  const res = await fetch(`${base}${path}`, { method });
  return { status: res.status, body: (await res.json()) as { errors?: { code: string; detail: string }[] } };
};
const cancelled = { locator: "K7M2QX", status: "cancelled", position: "12-345" };

describe("the answer check", () => {
  it("when a route answers what its contract describes, then the answer goes out unchanged", async () => {
    expect(await call("DELETE", "/bookings/K7M2QX", 200, cancelled)).toEqual({
      status: 200,
      body: cancelled,
    });
    const comment = { locator: "K7M2QX", position: null };
    expect(await call("POST", "/bookings/comment", 200, comment)).toEqual({ status: 200, body: comment });
    expect(check.violations).toEqual([]);
  });

  it("when a route answers a field its contract does not name, then the call fails with a 500 naming the route and the field", async () => {
    const res = await call("DELETE", "/bookings/K7M2QX", 200, { ...cancelled, refund_hint: "none" });
    expect(res.status).toBe(500);
    expect(res.body.errors?.[0]?.code).toBe("answer_not_in_contract");
    expect(res.body.errors?.[0]?.detail).toContain("DELETE /bookings/{locator} answered 200");
    expect(res.body.errors?.[0]?.detail).toContain("must NOT have additional properties");
    expect(check.violations.at(-1)).toMatchObject({ route: "DELETE /bookings/{locator}", status: 200 });
  });

  it("when a route leaves out a field its contract requires, or sends another type, then the call fails", async () => {
    const { position: _left, ...missing } = cancelled;
    const without = await call("DELETE", "/bookings/K7M2QX", 200, missing);
    expect([without.status, without.body.errors?.[0]?.detail]).toEqual([
      500,
      expect.stringContaining("must have required property 'position'"),
    ]);
    const mistyped = await call("DELETE", "/bookings/K7M2QX", 200, { ...cancelled, status: "refunded" });
    expect(mistyped.status).toBe(500);
  });

  it("when a route the public document leaves out answers what its contract does not describe, then the call fails too", async () => {
    const signedOut = { data: null, position: null };
    expect(await call("DELETE", "/sign_out", 200, signedOut)).toEqual({ status: 200, body: signedOut });
    const res = await call("DELETE", "/sign_out", 200, { ...signedOut, session_id: "s-1" });
    expect([res.status, res.body.errors?.[0]?.detail]).toEqual([
      500,
      expect.stringContaining("DELETE /sign_out answered 200"),
    ]);
  });

  it("when a route answers a success status it does not document, then the call fails", async () => {
    const res = await call("DELETE", "/bookings/K7M2QX", 201, cancelled);
    expect([res.status, res.body.errors?.[0]?.detail]).toEqual([
      500,
      expect.stringContaining("status 201 is not documented"),
    ]);
  });

  it("when a route refuses, then the refusal must be the error envelope, documented or not", async () => {
    const refusal = { errors: [{ status: "422", code: "not_held", title: "Not held" }] };
    expect(await call("DELETE", "/bookings/K7M2QX", 422, refusal)).toEqual({ status: 422, body: refusal });
    expect(await call("DELETE", "/bookings/K7M2QX", 409, refusal)).toEqual({ status: 409, body: refusal });
    expect((await call("DELETE", "/bookings/K7M2QX", 422, { error: "not held" })).status).toBe(500);
    // A route the document leaves out (openapi-coverage.test.ts says why) answers its errors in the envelope too.
    expect((await call("GET", "/csrf", 200, { token: "t" })).status).toBe(200);
    expect((await call("GET", "/csrf", 400, { message: "no" })).status).toBe(500);
  });
});
