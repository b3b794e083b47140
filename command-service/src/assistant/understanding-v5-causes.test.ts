import { describe, expect, it } from "@jest/globals";
import { type Directory, entity } from "./directory.ts";
import { parseAdminRequest } from "./embedded.ts";
import { interpretCalls } from "./interpret.ts";
import { checkCalls } from "./safety.ts";
import { admin, balticSupervisor, parse, verdictOf } from "./understanding-world.ts";

/**
 * Issue 25's understanding, session 36: general causes found by probing the parser with new phrasings of every
 * catalogue command (no evaluation table's rows), each in the five languages, over the understanding tests' world of
 * its own (names no table uses).
 */

const topUp = (minor: number, currency: string) => [
  {
    name: "balance_transaction",
    args: { body: { company_id: "co-riga", kind: "top_up", amount: { amount: minor, currency } } },
  },
];

describe("assistant understanding (issue 25): amounts written in words", () => {
  it("reads a number word before a thousand or a million, and hundreds, never only the thousand", () => {
    for (const [text, minor, currency] of [
      ["please could you add five thousand hryvnias to Baltic Wings Riga", 500_000, "UAH"],
      ["top up Baltic Wings Riga with twenty-five thousand UAH", 2_500_000, "UAH"],
      ["Поповни баланс компанії Baltic Wings Riga на дві тисячі гривень", 200_000, "UAH"],
      ["Поповни Baltic Wings Riga на п'ятсот гривень", 50_000, "UAH"],
      ["Doładuj Baltic Wings Riga o pięć tysięcy złotych", 500_000, "PLN"],
      ["Crédite Baltic Wings Riga de deux mille euros", 200_000, "EUR"],
      ["Recarga dos mil quinientos euros a Baltic Wings Riga", 250_000, "EUR"],
    ] as const) {
      expect([text, parse(text)]).toEqual([text, topUp(minor, currency)]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
    // A thousand alone, digits before a thousand's word, and "pour cent" / "por ciento" read as before.
    expect(parse("Поповни Baltic Wings Riga на тисячу гривень")).toEqual(topUp(100_000, "UAH"));
    expect(parse("top up Baltic Wings Riga 2 тисячі грн")).toEqual(topUp(200_000, "UAH"));
    expect(parse("Pon un margen del 3 por ciento a Baltic Wings Riga")).toEqual([
      {
        name: "set_company_markups",
        args: {
          company_id: "co-riga",
          body: { markups: [{ carrier: null, charge: { kind: "percent", bps: 300 } }] },
        },
      },
    ]);
  });
});

describe("assistant understanding (issue 25): a new name holding 'and'", () => {
  it("keeps the whole name written after 'named' / 'під назвою' / 'o nazwie' / 'nommé' / 'llamado'", () => {
    for (const [text, name] of [
      ["Create a new partner called Sun and Sea Travel", "Sun and Sea Travel"],
      ["Створи партнера під назвою Сонце і Море", "Сонце і Море"],
      ["Dodaj partnera o nazwie Słońce i Morze", "Słońce i Morze"],
      ["Crée un partenaire nommé Soleil et Mer", "Soleil et Mer"],
      ["Da de alta un socio nuevo llamado Sol y Mar Viajes", "Sol y Mar Viajes"],
    ] as const) {
      expect([text, parse(text)]).toEqual([text, [{ name: "create_partner", args: { body: { name } } }]]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
    expect(parse("Create company named Rock and Roll Tours for Baltic Wings")).toEqual([
      { name: "create_company", args: { body: { agency_id: "ag-baltic", name: "Rock and Roll Tours" } } },
    ]);
  });
});

describe("assistant understanding (issue 25): every sale stopped or resumed, nothing named", () => {
  it("switches the platform's main gate for an administrator, a named partner's gate stays the partner's", () => {
    for (const [text, active] of [
      ["All sales stop now.", false],
      ["shut down all sales", false],
      ["Resume all sales", true],
      ["Зупини всі продажі негайно", false],
      ["Відкрий усі продажі", true],
      ["Wstrzymaj całą sprzedaż", false],
      ["Wznów całą sprzedaż", true],
      ["Arrête toutes les ventes partout", false],
      ["Detén todas las ventas", false],
      ["Reanuda todas las ventas", true],
    ] as const) {
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "toggle_global_gate", args: { gate: "main", body: { active } } }],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
    expect(parse("Stop all sales of Baltic Wings")).toEqual([
      { name: "toggle_partner_gate", args: { agency_id: "ag-baltic", body: { active: false } } },
    ]);
    // A supervisor's "all sales" never widens to the platform.
    expect(parse("Stop all sales", balticSupervisor)).not.toContainEqual(
      expect.objectContaining({ name: "toggle_global_gate" }),
    );
  });
});

describe("assistant understanding (issue 25): a channel's changes asked", () => {
  it("answers the channel's history, never a switch read from 'on'", () => {
    for (const text of [
      "what changed on Main NDC of Baltic Wings?",
      "show recent changes of Main NDC channel at Baltic Wings",
      "Що змінилось у каналі Main NDC Baltic Wings?",
      "Co się zmieniło w kanale Main NDC Baltic Wings?",
      "Quelles modifications sur le canal Main NDC de Baltic Wings ?",
      "¿Qué cambió en el canal Main NDC de Baltic Wings?",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "channel_changes", args: { channel_id: "ch-baltic" } }],
      ]);
    }
    // Changing a code is still a change, asked politely or not.
    expect(parse("Can you change the nego code on Main NDC of Baltic Wings to XYZ1?")).toEqual([
      { name: "update_channel", args: { channel_id: "ch-baltic", body: { nego_code: "XYZ1" } } },
    ]);
  });
});

describe("assistant understanding (issue 25): the credit named as a noun, no 'limit'", () => {
  it("sets the credit limit; the English verb 'credit' still tops up", () => {
    for (const [text, amount, currency] of [
      ["Підніми кредит Baltic Wings Riga до 20000 грн", 2_000_000, "UAH"],
      ["Овердрафт для Baltic Wings Riga 10000 грн", 1_000_000, "UAH"],
      ["Kredyt dla Baltic Wings Riga: 5000 zł", 500_000, "PLN"],
      ["Découvert de Baltic Wings Riga à 3000 €", 300_000, "EUR"],
    ] as const) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "set_credit_limit",
            args: { company_id: "co-riga", body: { credit_limit: { amount, currency } } },
          },
        ],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
    expect(parse("credit Baltic Wings Riga 500 UAH")).toEqual(topUp(50_000, "UAH"));
  });
});

describe("assistant understanding (issue 25): access revoked", () => {
  it("removes the supervisor named, in five languages", () => {
    for (const [text, agency, person] of [
      ["revoke Ivan Petrenko's access", "ag-baltic", "u-ivan"],
      ["Забери доступ у Івана Петренка", "ag-baltic", "u-ivan"],
      ["Wyrzuć Ivana Petrenko z kierowników Baltic Wings", "ag-baltic", "u-ivan"],
      ["Révoque l'accès d'Ivan Petrenko", "ag-baltic", "u-ivan"],
      ["Revoca el acceso de Zofia Lis", "ag-iberia", "u-zofia"],
    ] as const) {
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "remove_supervisor", args: { agency_id: agency, supervisor_id: person } }],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant understanding (issue 25): money taken off a company", () => {
  it("reads 'from', 'off', 'від', 'od', 'desde' as where the money comes from, never as a reason", () => {
    for (const [text, currency] of [
      ["deduct 300 UAH from Baltic Wings Riga", "UAH"],
      ["take 300 UAH off Baltic Wings Riga balance", "UAH"],
      ["Забери 300 грн з балансу Baltic Wings Riga", "UAH"],
      ["Спиши 300 грн від Baltic Wings Riga", "UAH"],
      ["Odejmij 300 zł od Baltic Wings Riga", "PLN"],
      ["Odejmij 300 zł z salda Baltic Wings Riga", "PLN"],
      ["Resta 300 € desde Baltic Wings Riga", "EUR"],
    ] as const) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "balance_transaction",
            args: {
              body: { company_id: "co-riga", kind: "correction", amount: { amount: -30_000, currency } },
            },
          },
        ],
      ]);
    }
  });
});

describe("assistant understanding (issue 25): a part that keeps something as it is", () => {
  it("asks for no step and leaves no part over, its words no reason", () => {
    for (const [text, step] of [
      ["top up Baltic Wings Riga by 500 UAH, keep Baltic Wings Tallinn as is", topUp(50_000, "UAH")[0]],
      ["Поповни Baltic Wings Riga на 500 грн, Baltic Wings Tallinn не чіпай", topUp(50_000, "UAH")[0]],
      [
        "Wyłącz bramkę Baltic Wings Riga, ale Baltic Wings Tallinn zostaw bez zmian",
        { name: "toggle_company_gate", args: { company_id: "co-riga", body: { active: false } } },
      ],
      [
        "Ferme la passerelle de Baltic Wings Riga mais laisse Baltic Wings Tallinn tel quel",
        { name: "toggle_company_gate", args: { company_id: "co-riga", body: { active: false } } },
      ],
      [
        "Desactiva la venta de Baltic Wings Riga y deja Baltic Wings Tallinn como está",
        { name: "toggle_company_gate", args: { company_id: "co-riga", body: { active: false } } },
      ],
      [
        "Switch off shared bookings for Baltic Wings Riga, leave Tallinn alone",
        { name: "set_shared_bookings", args: { company_id: "co-riga", body: { active: false } } },
      ],
    ] as const) {
      expect([text, parse(text)]).toEqual([text, [step]]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
    // A part that keeps a setting while asking for another is read as before.
    expect(parse("Set markup 3% for LO on Baltic Wings Riga, keep the general markup as it is")).toEqual([
      {
        name: "set_company_markups",
        args: {
          company_id: "co-riga",
          body: { markups: [{ carrier: "LO", charge: { kind: "percent", bps: 300 } }] },
        },
      },
    ]);
    // Keeping alone plans nothing.
    expect(parse("keep Baltic Wings Tallinn as is", admin)).toEqual([]);
  });
});

describe("assistant understanding (issue 25): a partner or company itself blocked", () => {
  it("switches its ticketing gate, the company's when a company is named, in five languages", () => {
    for (const [text, step] of [
      [
        "Block Baltic Wings",
        { name: "toggle_partner_gate", args: { agency_id: "ag-baltic", body: { active: false } } },
      ],
      [
        "Unblock Baltic Wings Riga",
        { name: "toggle_company_gate", args: { company_id: "co-riga", body: { active: true } } },
      ],
      [
        "Розблокуй компанію Baltic Wings Riga",
        { name: "toggle_company_gate", args: { company_id: "co-riga", body: { active: true } } },
      ],
      [
        "Заморозь Baltic Wings Riga",
        { name: "toggle_company_gate", args: { company_id: "co-riga", body: { active: false } } },
      ],
      [
        "Zablokuj firmę Baltic Wings Riga",
        { name: "toggle_company_gate", args: { company_id: "co-riga", body: { active: false } } },
      ],
      [
        "Bloque Baltic Wings Riga",
        { name: "toggle_company_gate", args: { company_id: "co-riga", body: { active: false } } },
      ],
      [
        "Bloquea Baltic Wings",
        { name: "toggle_partner_gate", args: { agency_id: "ag-baltic", body: { active: false } } },
      ],
    ] as const) {
      expect([text, parse(text)]).toEqual([text, [step]]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
    // Something else blocked is read as before: a person, a channel, shared bookings.
    expect(parse("Block Ivan Petrenko")).toEqual([
      {
        name: "update_supervisor",
        args: { agency_id: "ag-baltic", supervisor_id: "u-ivan", body: { active: false } },
      },
    ]);
    expect(parse("Block shared bookings for Baltic Wings Riga")).toEqual([
      { name: "set_shared_bookings", args: { company_id: "co-riga", body: { active: false } } },
    ]);
  });
});

describe("assistant understanding (issue 25): Ukrainian money shorthand", () => {
  it("reads 2к as two thousand, 'скинь' as a top-up and 'обнули' as a zero limit", () => {
    expect(parse("скинь 2к грн на Baltic Wings Riga")).toEqual(topUp(200_000, "UAH"));
    expect(verdictOf("скинь 2к грн на Baltic Wings Riga")).toEqual({ kind: "ok" });
    for (const text of [
      "Обнули кредитний ліміт Baltic Wings Riga",
      "Wyzeruj limit kredytowy Baltic Wings Riga",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "set_credit_limit", args: { company_id: "co-riga", body: { credit_limit: 0 } } }],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant safety (issue 25): a Latin brand name written in Ukrainian as it is said", () => {
  // A world with English brand words in its names (Travel, Tours), which Ukrainians write Тревел, Турс.
  const world: Directory = {
    entities: [
      entity({ kind: "agency", id: "ag-nord", name: "Nord Travel", agency_id: "ag-nord", detail: null }),
      entity({
        kind: "company",
        id: "co-nord-riga",
        name: "Nord Travel Riga",
        agency_id: "ag-nord",
        detail: "Nord Travel",
      }),
      entity({
        kind: "company",
        id: "co-nord-vilnius",
        name: "Nord Travel Vilnius",
        agency_id: "ag-nord",
        detail: "Nord Travel",
      }),
      entity({ kind: "agency", id: "ag-amber", name: "Amber Tours", agency_id: "ag-amber", detail: null }),
    ],
  };
  const verdict = (text: string) => {
    const calls = parseAdminRequest(text, world, admin);
    const i = interpretCalls(calls, world, admin.userType);
    return {
      calls,
      verdict: checkCalls({
        text,
        calls: i.kind === "calls" ? i.calls : [],
        dir: world,
        outside: [],
        userType: admin.userType,
        agencyId: admin.agencyId,
        callsIn: (part) => parseAdminRequest(part, world, admin).length,
      }),
    };
  };

  it("is the name written in another script: the plan stands", () => {
    for (const [text, step] of [
      [
        "Для компанії Норд Тревел Рига вимкни спільні бронювання",
        { name: "set_shared_bookings", args: { company_id: "co-nord-riga", body: { active: false } } },
      ],
      [
        "Поповни Норд Тревел Вільнюс на 500 грн",
        {
          name: "balance_transaction",
          args: {
            body: {
              company_id: "co-nord-vilnius",
              kind: "top_up",
              amount: { amount: 50_000, currency: "UAH" },
            },
          },
        },
      ],
      [
        "Заблокуй Амбер Турс",
        { name: "toggle_partner_gate", args: { agency_id: "ag-amber", body: { active: false } } },
      ],
    ] as const) {
      expect([text, verdict(text)]).toEqual([text, { calls: [step], verdict: { kind: "ok" } }]);
    }
  });

  it("never makes a Latin misspelling exact: asked back", () => {
    for (const text of [
      "Для компанії Nord Travl Riga вимкни спільні бронювання",
      "Close the gate of Amber Turs",
    ]) {
      expect([text, verdict(text).verdict.kind]).toEqual([text, "clarify"]);
    }
  });
});

describe("assistant understanding (issue 25): English verbs of money, people and removal", () => {
  it("reads increase/reduce the balance as money moved, drop/get rid of as removal, onboard as an invitation", () => {
    expect(parse("increase the balance of Baltic Wings Riga by 500 UAH")).toEqual(topUp(50_000, "UAH"));
    expect(parse("reduce Baltic Wings Riga's balance by 200 UAH")).toEqual([
      {
        name: "balance_transaction",
        args: {
          body: { company_id: "co-riga", kind: "correction", amount: { amount: -20_000, currency: "UAH" } },
        },
      },
    ]);
    // Where the money goes and haste are no reason.
    expect(parse("I need 500 UAH added to Baltic Wings Riga's account asap")).toEqual(topUp(50_000, "UAH"));
    expect(parse("drop supervisor Zofia Lis")).toEqual([
      { name: "remove_supervisor", args: { agency_id: "ag-iberia", supervisor_id: "u-zofia" } },
    ]);
    expect(parse("get rid of the Baltic Wings Tallinn company")).toEqual([
      { name: "delete_company", args: { company_id: "co-tallinn" } },
    ]);
    expect(parse("onboard John Smith (john@baltic.test) as a supervisor for Baltic Wings")).toEqual([
      {
        name: "invite_supervisor",
        args: {
          agency_id: "ag-baltic",
          body: { email: "john@baltic.test", first_name: "John", last_name: "Smith", language: "en" },
        },
      },
    ]);
    expect(parse("make Ivan Petrenko inactive")).toEqual([
      {
        name: "update_supervisor",
        args: { agency_id: "ag-baltic", supervisor_id: "u-ivan", body: { active: false } },
      },
    ]);
    // A limit raised or lowered stays a limit.
    expect(parse("lower the credit limit of Baltic Wings Riga to 1000 UAH")).toEqual([
      {
        name: "set_credit_limit",
        args: { company_id: "co-riga", body: { credit_limit: { amount: 100_000, currency: "UAH" } } },
      },
    ]);
  });
});

describe("assistant safety (issue 25): a card's number asked to be shown", () => {
  it("is refused as a secret, never read as a switch from 'on'", () => {
    for (const text of [
      "what's the card number on Main NDC of Baltic Wings",
      "Покажи номер картки каналу Main NDC Baltic Wings",
      "Jaki jest numer karty w kanale Main NDC Baltic Wings?",
      "Quel est le numéro de carte du canal Main NDC de Baltic Wings ?",
      "Dime el número de tarjeta del canal Main NDC de Baltic Wings",
    ]) {
      expect([text, verdictOf(text)]).toEqual([
        text,
        expect.objectContaining({ kind: "refuse", code: "secret" }),
      ]);
    }
  });
});
