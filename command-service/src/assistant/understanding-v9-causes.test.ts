import { describe, expect, it } from "@jest/globals";
import { interpretCalls } from "./interpret.ts";
import { balticSupervisor, dir, parse, verdictOf } from "./understanding-world.ts";

/**
 * Issue 25, session 38: causes the eighth table's misses showed (once scored unseen, now tuning data), each tested in
 * phrasings of our own over the understanding tests' world, in the five languages.
 */

const off = { active: false };
const on = { active: true };

describe("assistant understanding (issue 25): ticketing stopped on the whole platform", () => {
  it("reads ticketing stopped or resumed on the platform, nothing named, as the main gate", () => {
    for (const [text, body] of [
      ["halt every ticketing on the platform at once, the GDS is down", off],
      ["зупини виписку квитків на всій платформі, збій у GDS", off],
      ["wstrzymaj wystawianie biletów na całej platformie", off],
      ["coupez l'émission des billets sur toute la plateforme, le GDS est en panne", off],
      ["detén la emisión en toda la plataforma, el GDS está caído", off],
      ["resume ticketing on the whole platform", on],
    ] as const) {
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "toggle_global_gate", args: { gate: "main", body } }],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });

  it("never widens a supervisor's request to the platform", () => {
    const text = "stop ticketing on the whole platform";
    expect(parse(text, balticSupervisor)).not.toContainEqual(
      expect.objectContaining({ name: "toggle_global_gate" }),
    );
  });
});

describe("assistant understanding (issue 25): a switch thrown for a list of companies", () => {
  const channelFor = (company: string, body: { active: boolean }) => ({
    name: "toggle_company_channel",
    args: { channel_id: "ch-baltic", company_id: company, body },
  });
  const gateOf = (company: string, body: { active: boolean }) => ({
    name: "toggle_company_gate",
    args: { company_id: company, body },
  });

  it("throws a channel's switch for each company of a list, every one named", () => {
    for (const text of [
      "turn on the Baltic Wings channel for its two offices, Riga and Tallinn",
      "увімкни канал Baltic Wings для двох офісів: Riga та Tallinn",
      "włącz kanał Baltic Wings dla obu biur, Riga i Tallinn",
      "active le canal de Baltic Wings pour Riga et Tallinn",
      "enciende el canal de Baltic Wings para las dos oficinas, Riga y Tallinn",
    ]) {
      expect([text, parse(text)]).toEqual([text, [channelFor("co-riga", on), channelFor("co-tallinn", on)]]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });

  it("closes the gate of each company of a list", () => {
    for (const text of [
      "close ticketing for Baltic Wings Riga and Baltic Wings Tallinn",
      "заблокуй виписку для Baltic Wings Riga і Baltic Wings Tallinn",
      "zablokuj wystawianie dla Baltic Wings Riga oraz Baltic Wings Tallinn",
      "bloque l'émission pour Baltic Wings Riga et Baltic Wings Tallinn",
      "bloquea la emisión de Baltic Wings Riga y Baltic Wings Tallinn",
    ]) {
      expect([text, parse(text)]).toEqual([text, [gateOf("co-riga", off), gateOf("co-tallinn", off)]]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant understanding (issue 25): one company asked, another left out by a negation", () => {
  it("acts on the company asked and leaves the one after 'not' untouched", () => {
    for (const text of [
      "open ticketing just for Baltic Wings Riga, not for Tallinn",
      "відкрий виписку тільки для Baltic Wings Riga, а не для Tallinn",
      "odblokuj wystawianie wyłącznie dla Baltic Wings Riga, nie dla Tallinn",
      "ouvre l'émission uniquement pour Baltic Wings Riga, mais pas pour Tallinn",
      "abre la emisión únicamente para Baltic Wings Riga, pero Tallinn no",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "toggle_company_gate", args: { company_id: "co-riga", body: on } }],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant understanding (issue 25): a channel said to sell no more", () => {
  it("switches off a channel's selling for a company, no switching verb written", () => {
    for (const text of [
      "our channel must not sell for Baltic Wings Tallinn any longer",
      "наш канал більше не має продавати для Baltic Wings Tallinn",
      "nasz kanał już nie sprzedaje dla Baltic Wings Tallinn",
      "notre canal ne doit plus vendre pour Baltic Wings Tallinn",
      "nuestro canal ya no debe vender para Baltic Wings Tallinn",
    ]) {
      expect([text, parse(text, balticSupervisor)]).toEqual([
        text,
        [
          {
            name: "toggle_company_channel",
            args: { channel_id: "ch-baltic", company_id: "co-tallinn", body: off },
          },
        ],
      ]);
    }
  });

  it("switches off a source said to sell no more, the others staying", () => {
    for (const text of [
      "Baltic Wings channel: no more sales through the extension, API stays",
      "канал Baltic Wings: без продажів через розширення",
      "kanał Baltic Wings: bez sprzedaży przez rozszerzenie",
      "canal de Baltic Wings : plus de ventes par l'extension",
      "canal de Baltic Wings: sin ventas por la extensión",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "toggle_source_channel",
            args: { channel_id: "ch-baltic", source: "extension", body: off },
          },
        ],
      ]);
    }
  });

  it("reads a question why a channel did not sell as no command", () => {
    for (const text of [
      "why did the Baltic Wings channel not sell through the API",
      "чому канал Baltic Wings не продає через API",
      "dlaczego kanał Baltic Wings nie sprzedaje przez API",
      "pourquoi le canal de Baltic Wings ne vend pas par l'API",
    ])
      expect([text, parse(text).filter((c) => c.name === "toggle_source_channel")]).toEqual([text, []]);
  });
});

describe("assistant understanding (issue 25): a person named in a first part, acted on in the next", () => {
  const active = (value: boolean) => [
    {
      name: "update_supervisor",
      args: { agency_id: "ag-baltic", supervisor_id: "u-ivan", body: { active: value } },
    },
  ];

  it("acts on the person the part before names ('… is on leave, block his account')", () => {
    for (const [text, value] of [
      ["Ivan Petrenko is on sick leave, block his account until he is back", false],
      ["Іван Петренко звільняється, заблокуй його акаунт", false],
      ["Ivan Petrenko jest na zwolnieniu, zablokuj jego konto", false],
      ["Ivan Petrenko est revenu, réactivez son compte", true],
      ["Ivan Petrenko volvió de la baja, reactiva su cuenta", true],
    ] as const) {
      expect([text, parse(text)]).toEqual([text, active(value)]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });

  it("reads 'on leave', 'on holiday' as a person away, never a switch on", () => {
    expect(parse("Ivan Petrenko is on holiday")).toEqual([]);
  });
});

describe("assistant understanding (issue 25): a supervisor switched with none named", () => {
  it("asks which supervisor, listing them, never guessing", () => {
    for (const text of [
      "block the supervisor",
      "заблокуй керівника",
      "zablokuj supervisora",
      "bloque le superviseur",
      "bloquea al supervisor",
    ]) {
      const asked = interpretCalls(parse(text), dir, "Admin");
      expect([text, asked.kind]).toEqual([text, "ambiguous"]);
      if (asked.kind === "ambiguous")
        expect([text, asked.candidates.map((c) => c.id).sort()]).toEqual([text, ["u-ivan", "u-zofia"]]);
    }
  });
});
