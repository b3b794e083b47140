import { describe, expect, it } from "@jest/globals";
import type { UserType } from "@skyward/contracts/metadata";
import type { ToolCall } from "@skyward/infra/llm/provider";
import { type Directory, entity } from "./directory.ts";
import { nameSpellings, parseAdminRequest } from "./embedded.ts";
import { interpretCalls } from "./interpret.ts";
import { checkCalls, nearest, type Verdict } from "./safety.ts";

/**
 * Issue 25's understanding, session 36: causes the v4 held-back half showed (phrasings no table uses), each in the
 * five languages, over the same world of its own as understanding.test.ts (names no table uses).
 */
const dir: Directory = {
  entities: [
    entity({ kind: "agency", id: "ag-baltic", name: "Baltic Wings", agency_id: "ag-baltic", detail: null }),
    entity({ kind: "agency", id: "ag-iberia", name: "Sierra Viajes", agency_id: "ag-iberia", detail: null }),
    entity({
      kind: "company",
      id: "co-riga",
      name: "Baltic Wings Riga",
      agency_id: "ag-baltic",
      detail: "Baltic Wings",
    }),
    entity({
      kind: "company",
      id: "co-tallinn",
      name: "Baltic Wings Tallinn",
      agency_id: "ag-baltic",
      detail: "Baltic Wings",
    }),
    entity({
      kind: "company",
      id: "co-sevilla",
      name: "Sierra Sevilla",
      agency_id: "ag-iberia",
      detail: "Sierra Viajes",
    }),
    entity({ kind: "channel", id: "ch-baltic", name: "Main NDC", agency_id: "ag-baltic", detail: null }),
    entity({ kind: "channel", id: "ch-iberia", name: "Main NDC", agency_id: "ag-iberia", detail: null }),
    entity({
      kind: "supervisor",
      id: "u-ivan",
      name: "Ivan Petrenko",
      agency_id: "ag-baltic",
      detail: "ivan@baltic.test",
    }),
    entity({
      kind: "supervisor",
      id: "u-zofia",
      name: "Zofia Lis",
      agency_id: "ag-iberia",
      detail: "zofia@sierra.test",
    }),
  ],
};

const admin = { userType: "Admin" as UserType, agencyId: null };
const balticSupervisor = { userType: "Supervisor" as UserType, agencyId: "ag-baltic" };
const parse = (text: string, ctx: { userType: UserType; agencyId: string | null; today?: string } = admin) =>
  parseAdminRequest(text, dir, ctx);

/** The verdict the route gives: the calls resolved, then checked against the request. */
function verdictOf(text: string, ctx: { userType: UserType; agencyId: string | null } = admin): Verdict {
  const calls = parse(text, ctx);
  const i = interpretCalls(calls, dir, ctx.userType);
  return checkCalls({
    text,
    calls: i.kind === "calls" ? i.calls : [],
    dir,
    outside: [],
    userType: ctx.userType,
    agencyId: ctx.agencyId,
    callsIn: (part, before = []) => {
      const earlier: ToolCall[] = before.length > 0 ? parseAdminRequest(before.join(", "), dir, ctx) : [];
      return parseAdminRequest(part, dir, { ...ctx, before: earlier }).length;
    },
  });
}

describe("assistant understanding (issue 25): an invitee's common first name written in another case", () => {
  it("invites by the base forms (Ігоря Мельника → Ігор Мельник, Piotra Nowaka → Piotr Nowak), the e-mail not spelling them", () => {
    for (const [text, first, last] of [
      ["Запроси Ігоря Мельника супервайзером до Baltic Wings, im@baltic.test", "Ігор", "Мельник"],
      ["Додай супервайзером Baltic Wings Миколу Бондаря, mb@baltic.test", "Микола", "Бондар"],
      ["Запроси Сергія Кравецького в супервайзери Baltic Wings, sk@baltic.test", "Сергій", "Кравецький"],
      ["Запроси супервайзерку Оксану Шевчук до Baltic Wings, os@baltic.test", "Оксана", "Шевчук"],
      ["Zaproś Piotra Nowaka p.n@baltic.test jako kierownika Baltic Wings", "Piotr", "Nowak"],
      ["Zaproś Martę Kowalską do Baltic Wings jako kierowniczkę, mk@baltic.test", "Marta", "Kowalska"],
      [
        "Dodaj do Baltic Wings kierowniczkę Natalię Zielińską, natalia.zielinska@baltic.test",
        "Natalia",
        "Zielińska",
      ],
      [
        "Zaproś Joannę Wójcicką (joanna.wojcicka@baltic.test) jako kierowniczkę Baltic Wings",
        "Joanna",
        "Wójcicka",
      ],
    ] as const) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "invite_supervisor",
            args: {
              agency_id: "ag-baltic",
              body: expect.objectContaining({ first_name: first, last_name: last }),
            },
          },
        ],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant understanding (issue 25): a removal verb whose object is a channel's code", () => {
  it("clears that code on the channel, never deletes the channel, in five languages", () => {
    for (const [text, body] of [
      ["Clear the negotiated nego code on Baltic Wings' Main NDC channel", { nego_code: null }],
      ["Видали nego код у каналі Main NDC партнера Baltic Wings", { nego_code: null }],
      ["Usuń z kanału Main NDC Baltic Wings kod rezydencki", { resident_fares_code: null }],
      ["Retire le code nego du canal Main NDC chez Baltic Wings", { nego_code: null }],
      ["Quita el código nego en el canal Main NDC de Baltic Wings", { nego_code: null }],
    ] as const) {
      for (const ctx of [admin, balticSupervisor]) {
        expect([text, parse(text, ctx)]).toEqual([
          text,
          [{ name: "update_channel", args: { channel_id: "ch-baltic", body } }],
        ]);
        expect([text, verdictOf(text, ctx)]).toEqual([text, { kind: "ok" }]);
      }
    }
    // The channel itself named for removal is still deleted.
    expect(parse("Usuń kanał Main NDC Baltic Wings")).toEqual([
      { name: "delete_channel", args: { channel_id: "ch-baltic" } },
    ]);
  });
});

describe("assistant understanding (issue 25): a partner copied under a new name, quoted any way", () => {
  it("duplicates the partner named with the quoted name, in five languages", () => {
    for (const text of [
      "Make a copy of Baltic Wings called ‹Baltic Nord›",
      "Скопіювати партнера Baltic Wings під назвою «Baltic Nord»",
      "Зроби копію Baltic Wings як нового партнера „Baltic Nord”",
      "Zrób kopię partnera Baltic Wings pod nazwą ‚Baltic Nord‘",
      "Copie Baltic Wings vers un nouveau partenaire « Baltic Nord »",
      "Copia los ajustes de Baltic Wings a un socio nuevo “Baltic Nord”",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "duplicate_partner", args: { agency_id: "ag-baltic", body: { name: "Baltic Nord" } } }],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant understanding (issue 25): a supervisor invited for one company only", () => {
  it("invites them with that company as the only one they sell for, in five languages", () => {
    for (const [text, locale] of [
      [
        "Add Maria Lopez (maria@baltic.test) as supervisor at Baltic Wings, only for the company Baltic Wings Tallinn",
        "en",
      ],
      [
        "Додай супервайзерку Марію Лопес maria@baltic.test у Baltic Wings тільки для компанії Baltic Wings Tallinn",
        "ua",
      ],
      [
        "Dodaj kierowniczkę Marię Lopez (maria@baltic.test) do Baltic Wings wyłącznie dla firmy Baltic Wings Tallinn",
        "pl",
      ],
      [
        "Invite la superviseure Maria Lopez maria@baltic.test chez Baltic Wings seulement pour la société Baltic Wings Tallinn",
        "fr",
      ],
      [
        "Invita a la supervisora Maria Lopez maria@baltic.test en Baltic Wings únicamente para la empresa Baltic Wings Tallinn",
        "es",
      ],
    ] as const) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "invite_supervisor",
            args: {
              agency_id: "ag-baltic",
              body: expect.objectContaining({
                email: "maria@baltic.test",
                last_name: locale === "ua" ? "Лопес" : "Lopez",
                company_ids: ["co-tallinn"],
              }),
            },
          },
        ],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant understanding (issue 25): a person not found, written inflected in Cyrillic", () => {
  it("looks for the nearest people by the name's base forms in Latin letters too", () => {
    const near = (ref: string) =>
      nameSpellings(ref).flatMap((r) => nearest(dir, r, "supervisor").map((e) => e.id));
    // Ігоря Петрушенка → Ігор Петрушенко → ihor petrushenko, near Ivan Petrenko (as written: no one near).
    expect(near("Ігоря Петрушенка")).toContain("u-ivan");
    // Зою Лісову → Зоя Лісова → zoia lisova; Софію Лісницьку → sofiia lisnytska: near Zofia Lis.
    expect(near("Зою Лісову")).toContain("u-zofia");
    expect(near("Софію Лісницьку")).toContain("u-zofia");
    expect(nameSpellings("Ігоря Петрушенка")).toEqual([
      "Ігоря Петрушенка",
      "Ігор Петрушенко",
      "ihor petrushenko",
    ]);
  });
});
