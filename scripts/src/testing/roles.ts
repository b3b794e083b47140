import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import type { HttpClient, HttpResponse } from "./http-client.ts";
import type { TestApp } from "./test-app.ts";

/** The demo world's ids (command-service/src/world), for tests outside scripts that may not import the seed. */
export const demo = {
  dnipro: demoId("agency", "dnipro"),
  vistula: demoId("agency", "vistula"),
  kyiv: demoId("company", "dnipro-kyiv"),
  lviv: demoId("company", "dnipro-lviv"),
  waw: demoId("company", "vistula-waw"),
  dniproChannel: demoId("channel", "dnipro"),
  vistulaChannel: demoId("channel", "vistula"),
  user: (key: string) => demoId("user", key),
} as const;

/**
 * One signed-in client per role the read scopes tell apart (DESIGN.md section 5): the Dnipro agent (Kyiv, a
 * company sharing its bookings), its colleague in Lviv (not sharing), their supervisor, the other agency's
 * supervisor and agent, an administrator, an auditor and the demo user.
 */
export interface Roles {
  agent: HttpClient;
  lvivAgent: HttpClient;
  supervisor: HttpClient;
  otherSupervisor: HttpClient;
  otherAgent: HttpClient;
  admin: HttpClient;
  auditor: HttpClient;
  demoUser: HttpClient;
}

/** Signs every role in (in parallel: each reads its own code from the dev mailbox). */
export async function signInRoles(t: TestApp): Promise<Roles> {
  const otp = async (email: string) => {
    const client = t.client();
    await client.signIn(email);
    return client;
  };
  const password = async (email: string) => {
    const client = t.client();
    await client.signInWithPassword(email, DEMO_PASSWORD);
    return client;
  };
  const [agent, lvivAgent, supervisor, otherSupervisor, otherAgent, admin, auditor, demoUser] =
    await Promise.all([
      otp("agent@dnipro.test"),
      otp("agent.lviv@dnipro.test"),
      otp("supervisor@dnipro.test"),
      otp("supervisor@vistula.test"),
      password("agent@vistula.test"),
      password("admin@skyward.test"),
      otp("auditor@skyward.test"),
      otp("demo@skyward.test"),
    ]);
  return { agent, lvivAgent, supervisor, otherSupervisor, otherAgent, admin, auditor, demoUser } as Roles;
}

/** Read-your-writes: the header that makes a read wait for the write `res` answered (its `position`). */
export const after = (res: HttpResponse) => ({ headers: { "x-min-position": String(res.body.position) } });
