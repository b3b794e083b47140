import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import type { HttpClient, HttpResponse, Json } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/**
 * What the assistant understands beyond its first table (issue 25), over real HTTP as each role: the rest of the
 * catalogue, compound requests read part by part, secrets refused, and questions whose answers name their scope.
 */

let t: TestApp;
let admin: HttpClient;
let dniproSupervisor: HttpClient;
const kyiv = demoId("company", "dnipro-kyiv");
const dnipro = demoId("agency", "dnipro");
const vistula = demoId("agency", "vistula");

beforeAll(async () => {
  t = await startTestApp();
  const signIn = async (email: string) => {
    const c = t.client();
    await c.signInWithPassword(email, DEMO_PASSWORD);
    return c;
  };
  admin = await signIn("admin@skyward.test");
  dniproSupervisor = await signIn("supervisor@dnipro.test");
}, 180_000);
afterAll(() => t.stop());

const ok = (res: HttpResponse): Json => {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};
const ask = async (client: HttpClient, text: string) => ok(await client.post("/admin_panel/ask", { text }));
const steps = (body: Json) => body.plan.steps.map((s: Json) => [s.command, s.args]);

describe("the rest of the catalogue, in the five languages", () => {
  it("when a supervisor is removed and another added in their place, then both are steps on the same partner", async () => {
    const body = await ask(
      admin,
      "Usuń supervisora Olena Kovalenko z Dnipro Travel i dodaj w jej miejsce: Natalia Bondarenko, natalia.b@dnipro.test",
    );
    expect(steps(body)).toEqual([
      ["remove_supervisor", { agency_id: dnipro, supervisor_id: demoId("user", "dnipro-supervisor") }],
      [
        "invite_supervisor",
        {
          agency_id: dnipro,
          body: {
            email: "natalia.b@dnipro.test",
            first_name: "Natalia",
            last_name: "Bondarenko",
            language: "en",
          },
        },
      ],
    ]);
  });

  it("when a partner is renamed, an option switched or a company deleted, then each is its command", async () => {
    expect(steps(await ask(admin, "Renomme le partenaire Dnipro Travel en Dnipro Voyages"))).toEqual([
      ["update_partner", { agency_id: dnipro, body: { name: "Dnipro Voyages" } }],
    ]);
    expect(steps(await ask(admin, "désactive l'API de production de Vistula Tours"))).toEqual([
      ["set_partner_flag", { agency_id: vistula, flag: "production_api_on", body: { value: false } }],
    ]);
    expect(steps(await ask(admin, "Borra la empresa Dnipro Travel Kyiv"))).toEqual([
      ["delete_company", { company_id: kyiv }],
    ]);
    expect(
      steps(await ask(dniproSupervisor, "Заборони агентам Dnipro Travel Kyiv бачити бронювання одне одного")),
    ).toEqual([["set_shared_bookings", { company_id: kyiv, body: { active: false } }]]);
  });

  it("when a supervisor is switched off by their whole name, then it is their partner's supervisor that changes", async () => {
    expect(steps(await ask(admin, "Deactivate supervisor Olena Kovalenko"))).toEqual([
      [
        "update_supervisor",
        { agency_id: dnipro, supervisor_id: demoId("user", "dnipro-supervisor"), body: { active: false } },
      ],
    ]);
  });

  it("when a channel's nego code and payment are set, then the step says it changes settings, not that it switches", async () => {
    const body = await ask(admin, "On Vistula Tours' channel set payment by card and nego code VT-77");
    const [step] = body.plan.steps;
    expect(step.args).toEqual({
      channel_id: demoId("channel", "vistula"),
      body: { nego_code: "VT-77", form_of_payment: "card" },
    });
    expect(step.preview.code).toBe("channel_settings");
    expect(step.changes.map((c: Json) => [c.field, c.after])).toEqual([
      ["nego_code", "VT-77"],
      ["form_of_payment", "card"],
    ]);
  });

  it("when a supervisor asks to rename their partner, then it is refused: only administrators rename partners", async () => {
    const body = await ask(dniproSupervisor, "Rename our agency to Dnipro Travel Group");
    expect([body.kind, body.refusal?.code]).toEqual(["refuse", "not_allowed"]);
  });

  it("when a card number or a card holder is given, then it is refused: secrets never pass through the assistant", async () => {
    for (const text of [
      "Store the card 4111 1111 1111 1111 exp 12/29 for Dnipro Travel",
      "Change le titulaire de la carte qui finit par 1881 en Marta Nowak",
    ]) {
      const body = await ask(admin, text);
      expect([text, body.kind, body.refusal?.code]).toEqual([text, "refuse", "secret"]);
    }
  });
});

describe("questions name the scope they cover", () => {
  it("when sales of a period are asked for, then the answer names the partner and the period", async () => {
    const body = await ask(admin, "How much did Dnipro Travel sell last month?");
    expect(body.kind).toBe("answer");
    expect(body.answer.question).toBe("sales_figures");
    expect(body.answer.data).toMatchObject({ scope: "Dnipro Travel", agency_id: dnipro });
    const { from, to } = body.answer.data.period;
    const now = new Date();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    expect(from).toBe(first.toISOString().slice(0, 10));
    expect(to).toBe(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10),
    );
  });

  it("when a partner's channel changes are asked by naming the partner, then the answer names that partner", async () => {
    for (const text of [
      "what changed lately on the Vistula Tours channel?",
      "Хто нещодавно змінював канал Vistula Tours?",
      "Qui a modifié le canal de Vistula Tours dernièrement ?",
      "¿Quién ha tocado el canal de Vistula Tours?",
    ]) {
      const body = await ask(admin, text);
      expect([text, body.kind, body.answer?.question]).toEqual([text, "answer", "channel_changes"]);
      expect([text, body.answer.preview.params.scope]).toEqual([text, "Vistula Tours"]);
    }
  });

  it("when a supervisor asks about their bookings or sales, then the answer names their own partner", async () => {
    const expiring = await ask(dniproSupervisor, "Which of our bookings expire today?");
    expect(expiring.answer.preview.params.scope).toBe("Dnipro Travel");
    const sales = await ask(dniproSupervisor, "Ile sprzedaliśmy w tym miesiącu?");
    expect(sales.answer.data).toMatchObject({ scope: "Dnipro Travel", agency_id: dnipro });
  });

  it("when a top-up is followed by 'and its balance', then the balance asked is the company's just topped up", async () => {
    const body = await ask(
      admin,
      "Crédite Dnipro Travel Kyiv de 100 UAH (facture 5) puis donne-moi son solde",
    );
    expect(body.kind).toBe("plan");
    expect(body.answers[0].data.company_id).toBe(kyiv);
  });

  it("when a company is created and then topped up in the same request, then the top-up is on the new company once it exists", async () => {
    const body = await ask(
      admin,
      "Create the company Dnipro Travel Odesa for Dnipro Travel in UAH and top it up with 250 UAH, reason: opening",
    );
    expect(steps(body)).toEqual([
      ["create_company", { body: { agency_id: dnipro, name: "Dnipro Travel Odesa", currency: "UAH" } }],
      [
        "balance_transaction",
        {
          body: {
            company_id: "$new:0",
            kind: "top_up",
            amount: { amount: 25000, currency: "UAH" },
            reason: "opening",
          },
        },
      ],
    ]);
    // The step names the company by the name the step before gives it.
    expect(body.plan.steps[1].preview.text).toContain("Dnipro Travel Odesa");
    const executed = await admin.post("/admin_panel/execute", { plan_id: body.plan.id, confirm_money: true });
    const done = ok(executed);
    expect(done.results.map((r: Json) => r.status)).toEqual(["done", "done"]);
    // The plan answers the latest position its steps wrote, and keeps it as the last write: the question next waits
    // for the read models to show the new company and its top-up (once not found, with no wait).
    expect(done.position).toBe(done.results[1].position);
    expect(executed.headers.get("set-cookie")).toContain(`skyward_last_write=${done.position}`);
    const balance = ok(
      await admin.post("/admin_panel/ask", { text: "What is the balance of Dnipro Travel Odesa?" }),
    );
    expect(balance.answer.preview.text).toContain("250");
  });
});

describe("every markup removed (issue 25, v3 table)", () => {
  it("when all of a company's markups are removed, then the plan empties its list (the preview shows the rules before and none after)", async () => {
    const before = (await t.db.pool.query("SELECT markups FROM read.companies WHERE id = $1", [kyiv])).rows[0]
      ?.markups;
    expect(before.length).toBeGreaterThan(0);
    for (const text of [
      "Dnipro Travel Kyiv: quita todos los márgenes",
      "Прибери всі націнки Dnipro Travel Kyiv",
    ]) {
      const body = await ask(admin, text);
      expect([text, steps(body)]).toEqual([
        text,
        [["set_company_markups", { company_id: kyiv, body: { markups: [] } }]],
      ]);
      expect(body.plan.steps[0].changes).toEqual([{ field: "markups", before, after: [] }]);
    }
  });
});
