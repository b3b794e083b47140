// The app never closes an idle keep-alive socket first: a client reusing its socket after a pause (as browsers, the
// tests' request contexts and nginx's upstream pool do) is answered, not reset (CI met ECONNRESET and 'socket hang up'
// when Node's 5 s default closed a socket a client was reusing).
import { Agent, request } from "node:http";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.stop());

/** One GET over the given keep-alive agent: its status and the socket it went over. */
function get(url: string, agent: Agent): Promise<{ status: number; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, socket: req.socket as Socket }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("keep-alive sockets", () => {
  it("when a client pauses longer than Node's default 5 s, then its idle socket is still open and answers on reuse", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await get(`${t.app.url}/csrf`, agent);
    let closedByServer = false;
    first.socket.once("close", () => {
      closedByServer = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(closedByServer).toBe(false);
    const second = await get(`${t.app.url}/csrf`, agent);
    expect([first.status, second.status, second.socket === first.socket]).toEqual([200, 200, true]);
    agent.destroy();
  }, 20_000);
});
