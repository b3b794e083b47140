import { describe, expect, it } from "@jest/globals";
import { interpretCalls } from "./interpret.ts";

import { admin, dir, parse, verdictOf } from "./understanding-world.ts";

/**
 * Issue 25's understanding, session 35: causes the v3 held-back half showed (phrasings no table uses), each in the
 * five languages, over the same world of its own as understanding.test.ts (names no table uses).
 */

describe("assistant understanding (issue 25): platform-wide gates named without the word 'gate'", () => {
  it("reads every channel of the platform and the consolidator as the global gates, in five languages", () => {
    for (const [text, gate, active] of [
      ["Please switch off every channel on the platform", "channel", false],
      ["Wyłącz wszystkie kanały w systemie", "channel", false],
      ["Увімкни всі канали платформи", "channel", true],
      ["Coupe tous les canaux", "channel", false],
      ["Enciende todos los canales de la plataforma", "channel", true],
      ["Turn the consolidator off", "consolidator", false],
      ["Włącz konsolidatora z powrotem", "consolidator", true],
      ["Вимкнути консолідатора", "consolidator", false],
      ["Réactive le consolidateur", "consolidator", true],
      ["Desactiva el consolidador", "consolidator", false],
    ] as const) {
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "toggle_global_gate", args: { gate, body: { active } } }],
      ]);
    }
  });

  it("keeps a channel or a partner named out of the platform-wide gate", () => {
    expect(parse("Switch off all channels of Baltic Wings")).not.toEqual([
      expect.objectContaining({ name: "toggle_global_gate" }),
    ]);
  });
});

describe("assistant understanding (issue 25): selling stopped for a partner or a company is its gate", () => {
  it("reads 'stop sales for X' as the partner's or company's gate, in five languages", () => {
    for (const [text, name, args] of [
      ["Halt all sales for Baltic Wings", "toggle_partner_gate", { agency_id: "ag-baltic" }],
      [
        "Zablokuj sprzedaż dla całej agencji Sierra Viajes",
        "toggle_partner_gate",
        { agency_id: "ag-iberia" },
      ],
      ["Відновити продажі для Baltic Wings Riga", "toggle_company_gate", { company_id: "co-riga" }],
      ["Bloque les ventes de Sierra Sevilla", "toggle_company_gate", { company_id: "co-sevilla" }],
      ["Detén las ventas de la agencia Baltic Wings", "toggle_partner_gate", { agency_id: "ag-baltic" }],
    ] as const) {
      const active = text.startsWith("Відновити");
      expect([text, parse(text)]).toEqual([text, [{ name, args: { ...args, body: { active } } }]]);
    }
  });

  it("keeps a channel's source when one is written ('switch off API sales on the channel')", () => {
    expect(parse("Switch off API sales on the Main NDC channel of Baltic Wings")).toEqual([
      {
        name: "toggle_source_channel",
        args: { channel_id: "ch-baltic", source: "api", body: { active: false } },
      },
    ]);
  });
});

describe("assistant understanding (issue 25): a sales question after a command, about 'it' or 'that company'", () => {
  it("answers the sales of the company the command named, in five languages", () => {
    for (const text of [
      "Top up Baltic Wings Riga by 200 EUR, reason wire 4, and tell me how much it sold in October",
      "Doładuj Baltic Wings Riga o 200 EUR, powód przelew 4, i podaj ile ona sprzedała w październiku",
      "Поповни Baltic Wings Riga на 200 EUR, причина переказ 4, і скажи скільки вона продала в жовтні",
      "Crédite Baltic Wings Riga de 200 EUR, motif virement 4, et dis-moi ce qu'elle a vendu en octobre",
      "Recarga Baltic Wings Riga con 200 EUR, motivo transferencia 4, y dime las ventas de esa empresa en octubre",
    ]) {
      expect([text, parse(text, { ...admin, today: "2026-12-01" })]).toEqual([
        text,
        [
          expect.objectContaining({ name: "balance_transaction" }),
          {
            name: "sales_figures",
            args: { company_id: "co-riga", date_from: "2026-10-01", date_to: "2026-10-31" },
          },
        ],
      ]);
    }
  });
});

describe("assistant understanding (issue 25): a thousand or a million written as a word", () => {
  it("tops up by 'a thousand' or 'a million' with no digit, in five languages", () => {
    for (const [text, amount, currency] of [
      ["Put a thousand euros on Baltic Wings Riga, reason bonus", 100_000, "EUR"],
      ["Zasil Baltic Wings Riga kwotą tysiąc hrywien, powód premia", 100_000, "UAH"],
      ["Поповни Baltic Wings Riga на тисячу гривень, причина бонус", 100_000, "UAH"],
      ["Crédite Baltic Wings Riga de mille euros, motif prime", 100_000, "EUR"],
      ["Recarga Baltic Wings Riga con un millón de euros, motivo bono", 100_000_000, "EUR"],
    ] as const) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "balance_transaction",
            args: {
              body: expect.objectContaining({
                company_id: "co-riga",
                kind: "top_up",
                amount: { amount, currency },
              }),
            },
          },
        ],
      ]);
    }
  });

  it("reads '3 tysiące zł' with its currency (the multiplier's whole word, not its first letters)", () => {
    expect(parse("Doładuj Baltic Wings Riga o 3 tysiące zł, powód zwrot")).toEqual([
      {
        name: "balance_transaction",
        args: {
          body: expect.objectContaining({
            company_id: "co-riga",
            amount: { amount: 300_000, currency: "PLN" },
          }),
        },
      },
    ]);
  });
});

describe("assistant understanding (issue 25): an invited supervisor's phone", () => {
  it("keeps the phone written with the invitation, in five languages", () => {
    for (const [text, phone] of [
      [
        "Invite supervisor Oksana Melnyk oksana@baltic.test to Baltic Wings, phone +371 2000 1111",
        "+371 2000 1111",
      ],
      [
        "Zaproś kierownika Oksana Melnyk oksana@baltic.test do Baltic Wings, telefon +48500600700",
        "+48500600700",
      ],
      [
        "Запроси супервайзера Oksana Melnyk oksana@baltic.test до Baltic Wings, телефон +380501112233",
        "+380501112233",
      ],
      [
        "Invite le superviseur Oksana Melnyk oksana@baltic.test chez Baltic Wings, téléphone 06 12 34 56 78",
        "06 12 34 56 78",
      ],
      [
        "Invita al supervisor Oksana Melnyk oksana@baltic.test a Baltic Wings, teléfono +34 611 222 333",
        "+34 611 222 333",
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
                email: "oksana@baltic.test",
                first_name: "Oksana",
                last_name: "Melnyk",
                phone,
              }),
            },
          },
        ],
      ]);
    }
  });
});

describe("assistant understanding (issue 25): a markup for one carrier added, the rest kept", () => {
  it("adds a markup to a partner named, never creating a new partner, in five languages", () => {
    for (const text of [
      "Add a 4% markup for LO to the partner Baltic Wings",
      "Dodaj narzut 4% dla LO partnerowi Baltic Wings",
      "Додай партнеру Baltic Wings націнку 4% на LO",
      "Ajoute au partenaire Baltic Wings une marge de 4 % pour LO",
      "Añade al socio Baltic Wings un margen del 4 % para LO",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "update_partner",
            args: {
              agency_id: "ag-baltic",
              body: { markups: [{ carrier: "LO", charge: { kind: "percent", bps: 400 } }] },
            },
          },
        ],
      ]);
    }
  });

  it("reads a percentage for one carrier as its markup, a carrier code with a digit no amount, and 'keep the rest' as no removal, in five languages", () => {
    for (const text of [
      "For Baltic Wings Riga add 3% on W6, and leave the existing markup alone",
      "Dla Baltic Wings Riga dodaj 3% na W6, obecnego narzutu nie ruszaj",
      "Для Baltic Wings Riga додай 3% на W6, наявну націнку не чіпай",
      "Pour Baltic Wings Riga ajoute 3 % sur W6, sans toucher à la marge actuelle",
      "Para Baltic Wings Riga añade un 3 % en W6, deja el margen actual como está",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "set_company_markups",
            args: {
              company_id: "co-riga",
              body: { markups: [{ carrier: "W6", charge: { kind: "percent", bps: 300 } }] },
            },
          },
        ],
      ]);
    }
  });
});

describe("assistant understanding (issue 25): an invitee's name written in a case ending", () => {
  it("invites by the names' base forms (Kowalskiego → Kowalski, Левченка → Левченко), the e-mail not spelling them", () => {
    for (const [text, first, last] of [
      ["Zaproś Tomasza Wiśniewskiego t.w@baltic.test jako kierownika Baltic Wings", "Tomasz", "Wiśniewski"],
      [
        "Zaproś Agnieszkę Lewandowską a.l@baltic.test jako kierowniczkę Baltic Wings",
        "Agnieszka",
        "Lewandowska",
      ],
      ["Zaproś kierownika Jana Nowickiego do Baltic Wings, e-mail jn@baltic.test", "Jan", "Nowicki"],
      ["Запроси супервайзера Андрія Коваленка a.k@baltic.test до Baltic Wings", "Андрій", "Коваленко"],
      ["Запроси супервайзера Олександра Петренка o.p@baltic.test до Baltic Wings", "Олександр", "Петренко"],
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

describe("assistant understanding (issue 25): twin channels told apart by their partner's own word", () => {
  it("acts on the channel of the partner whose distinctive word is written, inflected or not, in five languages", () => {
    for (const [text, call] of [
      [
        "Switch off web sales on the Baltic channel",
        {
          name: "toggle_source_channel",
          args: { channel_id: "ch-baltic", source: "web", body: { active: false } },
        },
      ],
      [
        "Wyłącz sprzedaż przez API na kanale Sierry",
        {
          name: "toggle_source_channel",
          args: { channel_id: "ch-iberia", source: "api", body: { active: false } },
        },
      ],
      [
        "Увімкни розширення на каналі Baltic",
        {
          name: "toggle_source_channel",
          args: { channel_id: "ch-baltic", source: "extension", body: { active: true } },
        },
      ],
      [
        "Mets le code nego NEG77 sur le canal Main NDC de l'agence Sierra",
        { name: "update_channel", args: { channel_id: "ch-iberia", body: { nego_code: "NEG77" } } },
      ],
      [
        "Pon el código nego NEG77 en el canal Main NDC de Baltic",
        { name: "update_channel", args: { channel_id: "ch-baltic", body: { nego_code: "NEG77" } } },
      ],
    ] as const) {
      expect([text, parse(text)]).toEqual([text, [call]]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });

  it("still asks which channel when the partner's word is misspelt or missing", () => {
    for (const text of ["Switch off web sales on the Baltc channel", "Switch off web sales on Main NDC"]) {
      // Unresolved (the resolver asks which) or resolved and then asked back by the safety check.
      const resolved = interpretCalls(parse(text), dir, "Admin");
      expect([text, resolved.kind === "calls" ? verdictOf(text).kind : "asked"]).not.toEqual([text, "ok"]);
    }
  });

  it("reads a channel code written after the channel's own name, not the name's letters, in five languages", () => {
    for (const [text, field] of [
      ["Set the resident fares code of Baltic Wings's Main NDC channel to RF22", "resident_fares_code"],
      ["Ustaw kod nego kanału Main NDC agencji Baltic Wings na RF22", "nego_code"],
      [
        "Встанови код резидентських тарифів каналу Main NDC партнера Baltic Wings: RF22",
        "resident_fares_code",
      ],
      ["Mets le code nego du canal Main NDC de Baltic Wings à RF22", "nego_code"],
      ["Pon el código de tarifa residente del canal Main NDC de Baltic Wings en RF22", "resident_fares_code"],
    ] as const) {
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "update_channel", args: { channel_id: "ch-baltic", body: { [field]: "RF22" } } }],
      ]);
    }
  });
});

describe("assistant understanding (issue 25): a new partner's or company's options written in later parts", () => {
  it("creates the partner with the flag a later part switches on, one step the safety check accepts, in five languages", () => {
    for (const text of [
      "Create a new partner Nordic Sky with a 2% markup and the corporate number switched on",
      "Załóż nowego partnera Nordic Sky z narzutem 2% i włączonym numerem korporacyjnym",
      "Створи нового партнера Nordic Sky з націнкою 2% і увімкненим корпоративним номером",
      "Crée un nouveau partenaire Nordic Sky avec une marge de 2 % et le numéro corporate activé",
      "Crea un socio nuevo Nordic Sky con un margen del 2 % y el número corporativo activado",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "create_partner",
            args: {
              body: {
                name: "Nordic Sky",
                markups: [{ carrier: null, charge: { kind: "percent", bps: 200 } }],
                corporate_number_on: true,
              },
            },
          },
        ],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });

  it("creates the company with shared bookings a later part switches on, not a step on the company not made yet, in five languages", () => {
    for (const text of [
      "Create company Baltic Wings Vilnius for Baltic Wings in EUR, and switch shared bookings on",
      "Utwórz firmę Baltic Wings Vilnius dla Baltic Wings w EUR, wspólne rezerwacje włączone",
      "Створи компанію Baltic Wings Vilnius для Baltic Wings в EUR, спільні бронювання увімкнені",
      "Crée la société Baltic Wings Vilnius pour Baltic Wings, en EUR, réservations partagées activées",
      "Crea la empresa Baltic Wings Vilnius para Baltic Wings en EUR, reservas compartidas activadas",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "create_company",
            args: {
              body: {
                agency_id: "ag-baltic",
                name: "Baltic Wings Vilnius",
                currency: "EUR",
                shared_bookings: true,
              },
            },
          },
        ],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant understanding (issue 25): a supervisor's account deactivated or blocked", () => {
  it("reads it as that supervisor switched off, in five languages", () => {
    for (const text of [
      "Deactivate the account of Ivan Petrenko",
      "Zablokuj konto Ivan Petrenko",
      "Деактивуй акаунт Ivan Petrenko",
      "Bloque le compte d'Ivan Petrenko",
      "Desactiva la cuenta de Ivan Petrenko",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "update_supervisor",
            args: { agency_id: "ag-baltic", supervisor_id: "u-ivan", body: { active: false } },
          },
        ],
      ]);
    }
  });
});

describe("assistant safety (issue 25, v4 held-back half): a partner's name never widens or narrows on its own", () => {
  it("reads a company word before a partner's name as one of its companies and asks which, in five languages", () => {
    for (const text of [
      "Close the gate of the company Baltic Wings",
      "Zamknij bramkę firmy Baltic Wings",
      "Закрий гейт компанії Baltic Wings",
      "Ferme la porte de la société Baltic Wings",
      "Desactiva la puerta de la empresa Baltic Wings",
    ]) {
      // Not a plan: the company is asked back (no company is named "Baltic Wings"), never the partner's gate.
      const asked = interpretCalls(parse(text), dir, "Admin");
      expect([text, parse(text).map((c) => c.name), asked.kind === "calls" ? "plan" : asked.kind]).toEqual([
        text,
        ["toggle_company_gate"],
        "ambiguous",
      ]);
      const offered = asked.kind === "ambiguous" ? asked.candidates.map((c) => c.id).sort() : [];
      expect([text, offered]).toEqual([text, ["co-riga", "co-tallinn"]]);
    }
  });

  it("keeps the partner's gate when the partner word is written", () => {
    for (const text of [
      "Ferme la porte de l'agence Baltic Wings",
      "Close the gate of the partner Baltic Wings",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "toggle_partner_gate", args: { agency_id: "ag-baltic", body: { active: false } } }],
      ]);
    }
  });

  it("asks which channel when a partner's selling source is switched with no channel written, even its only one", () => {
    for (const text of [
      "Switch off API selling for Baltic Wings",
      "Wyłącz sprzedaż przez API dla Baltic Wings",
      "Вимкни продаж через API для Baltic Wings",
      "Coupe la vente par API pour Baltic Wings",
      "Desactiva la venta por API de Baltic Wings",
    ]) {
      // The channel is missing from the plan, so it is asked back; the partner's only channel is not taken.
      const asked = interpretCalls(parse(text), dir, "Admin");
      expect([text, asked.kind]).toEqual([text, "missing"]);
    }
    // The channel word written: the partner's channel is named.
    expect(parse("Switch off API selling on the channel of Baltic Wings")).toEqual([
      {
        name: "toggle_source_channel",
        args: { channel_id: "ch-baltic", source: "api", body: { active: false } },
      },
    ]);
  });

  it("reads the live ('робочий', 'бойовий') API of a partner as its production API option", () => {
    for (const [text, value] of [
      ["вимкни робочий API у партнера Baltic Wings", false],
      ["увімкни бойовий API для агенції Sierra Viajes", true],
    ] as const) {
      const agency = text.includes("Baltic") ? "ag-baltic" : "ag-iberia";
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "set_partner_flag",
            args: { agency_id: agency, flag: "production_api_on", body: { value } },
          },
        ],
      ]);
    }
  });
});
