import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { PAGE_DATA_ID, type PageData, scriptJson, withPageData } from "./page-data.ts";
import { holdBalancesProjector } from "./testing/held-projector.ts";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/** A name that tries to leave its script element, open a comment, expand a replacement pattern, and is not UTF-16. */
const HOSTILE = "</script><script>alert(1)</script><!-- \u2028\u2029 $& $' $` & \ud800 Тарас";
/** The same without the lone surrogate, which the server refuses to store (invalid_characters). */
const HOSTILE_STORED = HOSTILE.replace("\ud800", "\u{1F6EB}");

/** The page data element's JSON, parsed; undefined when the page has none. */
function pageDataOf(html: string): PageData | undefined {
  const found = new RegExp(`<script type="application/json" id="${PAGE_DATA_ID}">([^<]*)</script>`).exec(
    html,
  );
  return found?.[1] === undefined ? undefined : (JSON.parse(found[1]) as PageData);
}

describe("the page's data as written into the HTML", () => {
  const page = "<!doctype html><html><head><title>Skyward</title></head><body></body></html>";
  const data = { session: { account: { first_name: HOSTILE } } } as unknown as PageData;

  it("given a name with </script>, a comment, replacement patterns and a lone surrogate, when written, then it stays inside its element and reads back whole", () => {
    const html = withPageData(page, data);
    // One element end (its own), no comment opened, nothing the replacement patterns would have pasted in.
    expect(html.split("</script>")).toHaveLength(2);
    expect(html).not.toContain("<!--");
    expect(html).not.toContain("<script>");
    expect(
      html.startsWith(`<!doctype html><html><head><title>Skyward</title><script type="application/json"`),
    ).toBe(true);
    expect(html.endsWith("</script></head><body></body></html>")).toBe(true);
    // Well-formed UTF-8 (the lone surrogate travels as an escape), and the name reads back exactly.
    expect(new TextDecoder("utf-8", { fatal: true }).decode(new TextEncoder().encode(html))).toBe(html);
    expect(html).toContain("\\ud800");
    expect(pageDataOf(html)).toEqual(data);
  });

  it("given the JSON of such a name, then it holds no <, > or & and no raw line separator", () => {
    const json = scriptJson({ name: HOSTILE });
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual({ name: HOSTILE });
  });

  it("given no data (an account the read model does not hold), then the page is left as it was", () => {
    expect(withPageData(page, null)).toBe(page);
  });
});

describe("the page's data over HTTP: each request's own caller, never stored", () => {
  let t: TestApp;
  let agent: HttpClient;
  let supervisor: HttpClient;

  const signedIn = async (email: string) => {
    const client = t.client();
    const signIn = await client.signInWithPassword(email, DEMO_PASSWORD);
    expect(signIn.status).toBe(200);
    return client;
  };
  const pageOf = async (client: HttpClient, path: string) => {
    const res = await client.get(path, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    return { res, html: String(res.body), data: pageDataOf(String(res.body)) };
  };

  beforeAll(async () => {
    t = await startTestApp();
    agent = await signedIn("agent@dnipro.test");
    supervisor = await signedIn("supervisor@vistula.test");
    const renamed = await agent.put("/account/details", { account: { first_name: HOSTILE_STORED } });
    expect([renamed.status, renamed.body]).toMatchObject([200, { data: { first_name: HOSTILE_STORED } }]);
    // The pages below read the read model the rename reaches (the route waits for it at the rename's position).
    await agent.get("/account/details", { headers: { "x-min-position": renamed.body.position } });
  }, 120_000);

  afterAll(() => t?.stop());

  it("given the built front end, when a signed-in agent opens /bookings, then the page carries what /account/details, /notifications, /balances and its first /bookings list answer them", async () => {
    const { data, html } = await pageOf(agent, "/bookings");
    const [details, notifications, balances, list] = await Promise.all([
      agent.get("/account/details"),
      agent.get("/notifications"),
      agent.get("/balances"),
      agent.get("/bookings?list=new&page=1&per_page=20"),
    ]);
    expect(data).toEqual({
      session: details.body,
      notifications: notifications.body,
      balances: balances.body.data,
      bookings: { list: "new", page: 1, per_page: 20, answer: list.body },
    });
    // Another list and page of the address: that one; a text search or an opened booking: none (the page asks).
    const issued = await pageOf(agent, "/bookings?list=issued&page=2");
    expect(issued.data?.bookings).toEqual({
      list: "issued",
      page: 2,
      per_page: 20,
      answer: (await agent.get("/bookings?list=issued&page=2&per_page=20")).body,
    });
    for (const other of [
      "/bookings?q=ABC",
      "/bookings?locator=ABC234",
      "/bookings?list=lost",
      "/bookings?page=0",
    ])
      expect([other, (await pageOf(agent, other)).data?.bookings]).toEqual([other, undefined]);
    // The hostile name reads back whole, and stayed inert.
    expect(data?.session?.account.first_name).toBe(HOSTILE_STORED);
    expect(html).not.toContain("<script>alert(1)");
    expect(html.split(`id="${PAGE_DATA_ID}"`)).toHaveLength(2);
  });

  it("given two users and a visitor on one server, when their pages load in turn, then each page names only its own caller and none is stored", async () => {
    const agentEmail = "agent@dnipro.test";
    const supervisorEmail = "supervisor@vistula.test";
    for (const [client, own, other] of [
      [agent, agentEmail, supervisorEmail],
      [supervisor, supervisorEmail, agentEmail],
      [agent, agentEmail, supervisorEmail],
    ] as const) {
      const { res, html, data } = await pageOf(client, "/search");
      expect(data?.session?.account.email).toBe(own);
      expect(html).not.toContain(other);
      // Only the bookings page carries the balances.
      expect(data?.balances).toBeUndefined();
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("vary")?.toLowerCase()).toContain("cookie");
    }
    const visitor = await pageOf(t.client(), "/bookings");
    expect(visitor.data).toEqual({ session: null });
    expect(visitor.html).not.toContain(agentEmail);
    expect(visitor.html).not.toContain(supervisorEmail);
    expect(visitor.res.headers.get("cache-control")).toBe("no-store");
  });

  it("given a correction the balances read model has not reached yet, when the agent opens /bookings at once, then the page waits for it and carries the corrected balance", async () => {
    const admin = await signedIn("admin@skyward.test");
    const [before] = (await agent.get("/balances")).body.data as {
      company_id: string;
      balance_amount: { amount: number; currency: string };
    }[];
    if (!before) throw new Error("the agent sees no balance");
    // The balances projector is held back (reads still go through) until the page was asked.
    const held = await holdBalancesProjector(t.app.pool);
    try {
      const corrected = await admin.post("/transactions", {
        transaction: {
          company_id: before.company_id,
          kind: "correction",
          amount: 123_45,
          reason: "Page freshness",
        },
      });
      expect(corrected.status).toBe(201);
      const page = pageOf(agent, "/bookings");
      await new Promise((resolve) => setTimeout(resolve, 300));
      await held.letGo();
      const { data } = await page;
      expect(data?.balances?.find((b) => b.company_id === before.company_id)?.balance_amount).toEqual({
        amount: before.balance_amount.amount + 123_45,
        currency: before.balance_amount.currency,
      });
    } finally {
      await held.letGo();
    }
  });

  it("given an agent who signed out, when their browser opens a page again, then it says nobody is signed in", async () => {
    const client = await signedIn("agent.lviv@dnipro.test");
    expect((await pageOf(client, "/search")).data?.session?.account.email).toBe("agent.lviv@dnipro.test");
    const out = await client.delete("/sign_out");
    expect(out.status).toBeLessThan(300);
    expect((await pageOf(client, "/search")).data).toEqual({ session: null });
  });
});
