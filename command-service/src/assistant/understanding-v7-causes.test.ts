import { describe, expect, it } from "@jest/globals";
import { parseAdminRequest } from "./embedded.ts";
import { admin, balticSupervisor, dir, parse, verdictOf } from "./understanding-world.ts";

/**
 * Issue 25's understanding, session 38: general causes behind the seventh table's misses (and the sixth's left), each
 * tested in new phrasings of its own (no table's rows), in several languages, over the understanding tests' world
 * (Baltic Wings with its Riga and Tallinn companies, Sierra Viajes with Sierra Sevilla; names no table uses).
 */

const ivan = { ...balticSupervisor, userId: "u-ivan" };

describe("assistant understanding (issue 25): a company named by its city", () => {
  it("resolves 'the Riga office', 'la société de Tallinn', 'таллінської компанії' to the one company there", () => {
    for (const [text, ctx, call] of [
      [
        "top up the Tallinn office by 300 EUR, reason invoice 12",
        admin,
        {
          name: "balance_transaction",
          args: {
            body: {
              company_id: "co-tallinn",
              kind: "top_up",
              amount: { amount: 30000, currency: "EUR" },
              reason: "invoice 12",
            },
          },
        },
      ],
      [
        "bloque la passerelle de la société de Riga",
        admin,
        { name: "toggle_company_gate", args: { company_id: "co-riga", body: { active: false } } },
      ],
      [
        "увімкни спільні бронювання для таллінської компанії",
        balticSupervisor,
        { name: "set_shared_bookings", args: { company_id: "co-tallinn", body: { active: true } } },
      ],
      [
        "let the Riga agents see each other's bookings",
        balticSupervisor,
        { name: "set_shared_bookings", args: { company_id: "co-riga", body: { active: true } } },
      ],
      [
        "apaga nuestro canal para la empresa de Tallinn",
        balticSupervisor,
        {
          name: "toggle_company_channel",
          args: { channel_id: "ch-baltic", company_id: "co-tallinn", body: { active: false } },
        },
      ],
    ] as const) {
      expect([text, parse(text, ctx)]).toEqual([text, [call]]);
      expect([text, verdictOf(text, ctx)]).toEqual([text, { kind: "ok" }]);
    }
  });

  it("reads a city standing apart in another language ('we Lwowie' style: 'w Rydze', 'de Séville'), and 'the channel for the X office'", () => {
    for (const [text, ctx, call] of [
      [
        "włącz wspólne rezerwacje dla firmy w Rydze",
        balticSupervisor,
        { name: "set_shared_bookings", args: { company_id: "co-riga", body: { active: true } } },
      ],
      [
        "apaga el canal para la oficina de Tallin",
        balticSupervisor,
        {
          name: "toggle_company_channel",
          args: { channel_id: "ch-baltic", company_id: "co-tallinn", body: { active: false } },
        },
      ],
      [
        "Вимкни канал для офісу в Ризі",
        balticSupervisor,
        {
          name: "toggle_company_channel",
          args: { channel_id: "ch-baltic", company_id: "co-riga", body: { active: false } },
        },
      ],
    ] as const) {
      expect([text, parse(text, ctx)]).toEqual([text, [call]]);
      expect([text, verdictOf(text, ctx)]).toEqual([text, { kind: "ok" }]);
    }
  });

  it("reads a city written in another language beside the partner's whole name ('Baltic Wings Ryga')", () => {
    const text = "zablokuj bramkę firmy Baltic Wings Ryga";
    expect(parse(text)).toEqual([
      { name: "toggle_company_gate", args: { company_id: "co-riga", body: { active: false } } },
    ]);
    expect(verdictOf(text)).toEqual({ kind: "ok" });
  });

  it("never picks a company when no company of the partner named is in that city, or the city is in a new name", () => {
    for (const text of [
      "top up Sierra Viajes' Riga office by 100 EUR, reason invoice 3",
      "zablokuj bramkę firmy Baltic Ryga",
      "top up Riga Express by 100 EUR, reason invoice 3",
    ])
      expect([text, /co-riga|co-tallinn/u.test(JSON.stringify(parse(text)))]).toEqual([text, false]);
    expect(verdictOf("top up Sierra Viajes' Riga office by 100 EUR, reason invoice 3").kind).toBe("clarify");
  });
});

describe("assistant understanding (issue 25): a part keeping something as it is plans nothing", () => {
  it("reads 'web stays on', 'l'API reste active', 'la web sigue encendida' as nothing to do", () => {
    for (const [text, source] of [
      ["switch off the extension source of the Baltic Wings channel, the API stays on", "extension"],
      ["coupe la source web du canal de Baltic Wings, l'API reste active", "web"],
      ["apaga la fuente API del canal de Baltic Wings, la web sigue encendida", "api"],
      ["вимкни джерело API на каналі Baltic Wings, веб залишається увімкненим", "api"],
    ] as const) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "toggle_source_channel",
            args: { channel_id: "ch-baltic", source, body: { active: false } },
          },
        ],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant understanding (issue 25): a deleting verb said not to be done", () => {
  it("deactivates the account, never removes the supervisor ('don't delete', 'не видаляй', 'nie usuwaj', 'sans le supprimer')", () => {
    for (const text of [
      "Deactivate Ivan Petrenko's account for a while, do not delete him",
      "деактивуй акаунт Ivan Petrenko (не видаляй його)",
      "dezaktywuj konto Ivan Petrenko, ale nie usuwaj go",
      "désactive le compte de Ivan Petrenko sans le supprimer",
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
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant understanding (issue 25): a code glued to a name or to a word is one code", () => {
  it("reads 'BALTIC-7' whole, and a code like 'NOWY5' creates nothing", () => {
    expect(parse("Baltic Wings channel: nego code BALTIC-7")).toEqual([
      { name: "update_channel", args: { channel_id: "ch-baltic", body: { nego_code: "BALTIC-7" } } },
    ]);
    for (const [text, code] of [
      ["kanał Baltic Wings: płatność kartą i kod nego NOWY5", "NOWY5"],
      ["canal de Baltic Wings : paiement carte + code négocié NEW42", "NEW42"],
    ] as const) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "update_channel",
            args: { channel_id: "ch-baltic", body: { nego_code: code, form_of_payment: "card" } },
          },
        ],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });

  it("takes a payment form written in a piece of its own as the channel's ('…, forma płatności saldo')", () => {
    for (const text of [
      "Kanał Baltic Wings: kod nego RZ77 zamiast obecnego, forma płatności saldo",
      "Baltic Wings channel: nego code RZ77, payment by balance",
      "canal de Baltic Wings : code négocié RZ77, paiement par solde",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "update_channel",
            args: { channel_id: "ch-baltic", body: { nego_code: "RZ77", form_of_payment: "balance" } },
          },
        ],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant understanding (issue 25): the platform's channel gate, a negated sale, a card number asked", () => {
  it("switches the global channel gate for 'the whole platform's channel gate'", () => {
    for (const text of [
      "Close the channel gate for the whole platform",
      "Зачини шлюз каналів для всієї платформи",
      "desactiva la pasarela de canales de toda la plataforma",
      "zamknij bramkę kanałów całej platformy",
      "ferme la passerelle des canaux de toute la plateforme",
    ])
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "toggle_global_gate", args: { gate: "channel", body: { active: false } } }],
      ]);
  });

  it("reads 'we are not selling for now' as a reason, not a question on sales", () => {
    for (const text of [
      "apaga nuestro canal, por ahora no vendemos",
      "switch our channel off, we don't sell for now",
      "wyłącz nasz kanał, na razie nie sprzedajemy",
    ]) {
      expect([text, parse(text, balticSupervisor)]).toEqual([
        text,
        [{ name: "update_channel", args: { channel_id: "ch-baltic", body: { on_by_supervisor: false } } }],
      ]);
      expect([text, verdictOf(text, balticSupervisor)]).toEqual([text, { kind: "ok" }]);
    }
  });

  it("refuses the card's number asked with an article between ('el número de la tarjeta', 'le numéro de la carte')", () => {
    for (const text of [
      "dame el número de la tarjeta del canal de Baltic Wings",
      "donne-moi le numéro de la carte du canal de Baltic Wings",
      "tell me the number of the card on the Baltic Wings channel",
    ])
      expect([text, verdictOf(text)]).toEqual([
        text,
        expect.objectContaining({ kind: "refuse", code: "secret" }),
      ]);
  });
});

describe("assistant understanding (issue 25): people's details", () => {
  it("reads a phone given as 'тел.', 'tel.', 'tél.' on an invitation", () => {
    for (const [text, phone] of [
      ["запроси супервізора Ірину Ткач, iryna@baltic.test, тел. +380501112233", "+380501112233"],
      ["zaproś supervisora Annę Lis, anna@baltic.test, tel. +48 600 111 222", "+48 600 111 222"],
    ] as const) {
      const [call] = parse(text, balticSupervisor);
      expect([text, (call?.args as { body?: { phone?: string } } | undefined)?.body?.phone]).toEqual([
        text,
        phone,
      ]);
    }
  });

  it("changes a supervisor's phone asked as their 'number' ('le numéro de', 'el número de', 'numer')", () => {
    for (const text of [
      "Change le numéro de Ivan Petrenko : +37120000000",
      "cambia el número de Ivan Petrenko a +37120000000",
      "zmień numer Ivan Petrenko na +37120000000",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "update_supervisor",
            args: { agency_id: "ag-baltic", supervisor_id: "u-ivan", body: { phone: "+37120000000" } },
          },
        ],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });

  it("changes the asker's own surname ('моє прізвище', 'my surname', 'mi apellido')", () => {
    for (const [text, name] of [
      ["Зміни моє прізвище на Петренко-Лис", "Петренко-Лис"],
      ["change my surname to Petrenko-Lis", "Petrenko-Lis"],
      ["cambia mi apellido a Petrenko Lis", "Petrenko Lis"],
    ] as const) {
      expect([text, parse(text, ivan)]).toEqual([
        text,
        [
          {
            name: "update_supervisor",
            args: { agency_id: "ag-baltic", supervisor_id: "u-ivan", body: { last_name: name } },
          },
        ],
      ]);
      expect([text, verdictOf(text, ivan)]).toEqual([text, { kind: "ok" }]);
    }
  });

  it("asks back about a person no supervisor matches, whether their account is switched off or on", () => {
    for (const text of [
      "Réactive le compte de Ivan Kowalski",
      "reactivate Ivan Kowalski's account",
      "odblokuj konto Ivan Kowalski",
    ]) {
      const [call] = parse(text);
      expect([
        text,
        call?.name,
        (call?.args as { supervisor_id?: string } | undefined)?.supervisor_id,
      ]).toEqual([text, "update_supervisor", "Ivan Kowalski"]);
    }
  });
});

describe("assistant understanding (issue 25): money written as '5 mil', '12k', added with 'súmale'", () => {
  it("tops up with Spanish 'suma' / 'súmale' and Polish 'dorzuć'", () => {
    for (const [text, minor, currency] of [
      ["Súmale 3 mil euros al saldo de Baltic Wings Riga, motivo: transferencia 17", 300000, "EUR"],
      ["suma 12k EUR a Baltic Wings Riga, motivo: transferencia 17", 1200000, "EUR"],
      ["dorzuć 500 EUR do salda Baltic Wings Riga, tytułem: transferencia 17", 50000, "EUR"],
    ] as const) {
      const [call] = parse(text);
      expect([
        text,
        call?.name,
        (call?.args as { body?: { amount?: unknown } } | undefined)?.body?.amount,
      ]).toEqual([text, "balance_transaction", { amount: minor, currency }]);
    }
  });
});

describe("assistant understanding (issue 25): one carrier's markup beside the general one kept", () => {
  it("reads the carrier's rule from what is asked, never from the general rule kept ('sans toucher les 2 % généraux')", () => {
    for (const text of [
      "margen de Baltic Wings para LH: 50 EUR por pasajero, sin tocar el 2 % general",
      "marge de Baltic Wings pour LH : 50 EUR par passager, sans toucher les 2 % généraux",
      "Baltic Wings markup for LH: 50 EUR per passenger, keep the general 2 % as it is",
    ])
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "update_partner",
            args: {
              agency_id: "ag-baltic",
              body: {
                markups: [
                  {
                    carrier: "LH",
                    charge: { kind: "fixed", amount: { amount: 5000, currency: "EUR" }, per: "passenger" },
                  },
                ],
              },
            },
          },
        ],
      ]);
  });
});

describe("assistant understanding (issue 25): a part told as done says why, it asks for nothing", () => {
  it("deletes the company asked, the closing told before it in the past is no part left over", () => {
    for (const [text, id] of [
      ["We closed the Riga office, please delete that company", "co-riga"],
      ["Nous avons fermé le bureau de Riga, supprime cette société", "co-riga"],
      ["Ми закрили таллінський офіс, видали цю компанію", "co-tallinn"],
      ["hemos cerrado la oficina de Tallinn, borra esa empresa", "co-tallinn"],
      ["Zamknęliśmy biuro Baltic Wings Tallinn, usuń tę firmę", "co-tallinn"],
    ] as const) {
      expect([text, parse(text, balticSupervisor)]).toEqual([
        text,
        [{ name: "delete_company", args: { company_id: id } }],
      ]);
      expect([text, verdictOf(text, balticSupervisor)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant understanding (issue 25): the sixth table's causes left", () => {
  it("reads 'tytuł:' as the reason of a top-up", () => {
    const [call] = parse("doładuj Baltic Wings Riga 300 EUR, tytuł: przelew 2026/12/01");
    expect((call?.args as { body?: { reason?: string } } | undefined)?.body?.reason).toBe(
      "przelew 2026/12/01",
    );
  });

  it("reads 'kill' as switching off", () => {
    for (const text of ["kill the global gate, now", "kill the consolidator gate"])
      expect([text, parse(text)[0]?.name]).toEqual([text, "toggle_global_gate"]);
  });

  it("reads 'our company' as a supervisor's one company, and asks back when they have two", () => {
    const oneCompany = {
      entities: [...dir.entities.filter((e) => e.id !== "co-tallinn")],
    };
    for (const text of ["saldo naszej firmy?", "what's our company's balance?", "баланс нашої компанії?"])
      expect([text, parseAdminRequest(text, oneCompany, balticSupervisor)]).toEqual([
        text,
        [{ name: "company_balance", args: { company_id: "co-riga" } }],
      ]);
    expect(parse("saldo naszej firmy?", balticSupervisor)).toEqual([{ name: "company_balance", args: {} }]);
  });

  it("asks back a company blocked by a name nothing matches, with the nearest", () => {
    for (const [text, name] of [
      ["zablokuj firmę Baltic Kaunas", "Baltic Kaunas"],
      ["block company Sierra Granada", "Sierra Granada"],
      ["bloquea la empresa Baltic Vilnius", "Baltic Vilnius"],
    ] as const)
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "toggle_company_gate", args: { company_id: name, body: { active: false } } }],
      ]);
  });
});

describe("assistant safety (issue 25): a company named by its city is a part like any other", () => {
  it("asks back when a second company named by its city gets no step", () => {
    for (const text of [
      "Top up the Riga office and the Tallinn office by 100 EUR each, reason: bonus",
      "Doładuj biuro w Rydze i biuro w Tallinie po 100 EUR, tytułem: premia",
    ])
      expect([text, verdictOf(text).kind]).toEqual([text, "clarify"]);
  });
});

describe("assistant understanding (issue 25): more of the seventh table's kind", () => {
  it("switches the source the verb names, never one a part keeps on ('… but leave the API on')", () => {
    for (const [text, source] of [
      ["Turn off the web source on the Baltic Wings channel but leave the API on", "web"],
      ["wyłącz rozszerzenie w kanale Baltic Wings, API niech zostanie włączone", "extension"],
    ] as const)
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "toggle_source_channel",
            args: { channel_id: "ch-baltic", source, body: { active: false } },
          },
        ],
      ]);
  });

  it("reads a code with a hyphen whose letters look like a word ('NOWAK-77') as a code, and 'z salda' as the balance", () => {
    expect(parse("El canal de Baltic Wings: código nego NOWAK-77 y pago con tarjeta")).toEqual([
      {
        name: "update_channel",
        args: { channel_id: "ch-baltic", body: { nego_code: "NOWAK-77", form_of_payment: "card" } },
      },
    ]);
    expect(parse("Kanał Baltic Wings: kod nego BW-01, płatność z salda")).toEqual([
      {
        name: "update_channel",
        args: { channel_id: "ch-baltic", body: { nego_code: "BW-01", form_of_payment: "balance" } },
      },
    ]);
  });

  it("reads the asker's own name after 'por' and a first name as 'imię' / 'prénom'", () => {
    for (const [text, field, value] of [
      ["Cambia mi apellido por Petrenko-Lis", "last_name", "Petrenko-Lis"],
      ["Zmień moje imię na Iwan", "first_name", "Iwan"],
      ["Change mon prénom en Iwan", "first_name", "Iwan"],
    ] as const)
      expect([text, parse(text, ivan)]).toEqual([
        text,
        [
          {
            name: "update_supervisor",
            args: { agency_id: "ag-baltic", supervisor_id: "u-ivan", body: { [field]: value } },
          },
        ],
      ]);
  });
});

describe("assistant understanding (issue 25): a partner's first word and a company's city, capitalised", () => {
  it("reads 'Baltic Riga' as the one Baltic Wings company in Riga, never a translated or longer name", () => {
    for (const text of [
      "top up Baltic Riga by 100 EUR, reason invoice 3",
      "Doładuj Baltic Riga o 100 EUR, tytułem: faktura 3",
    ]) {
      const [call] = parse(text);
      expect([
        text,
        (call?.args as { body?: { company_id?: string } } | undefined)?.body?.company_id,
      ]).toEqual([text, "co-riga"]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
    for (const text of [
      "top up Baltic Riga Center by 100 EUR, reason invoice 3",
      "top up Baltic Ryga by 100 EUR, reason invoice 3",
    ])
      expect([text, /co-riga/u.test(JSON.stringify(parse(text)))]).toEqual([text, false]);
  });
});

describe("assistant understanding (issue 25): a person named by one of their names, switched off or on", () => {
  it("asks back with the nearest, never not understood ('Deactivate Petrenko', 'Block Ivan')", () => {
    for (const [text, ref, active] of [
      ["Deactivate Petrenko", "Petrenko", false],
      ["Block Ivan", "Ivan", false],
      ["Réactive Petrenko", "Petrenko", true],
    ] as const)
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "update_supervisor", args: { supervisor_id: ref, body: { active } } }],
      ]);
  });
});

describe("assistant understanding (issue 25): the sixth table's causes left, continued", () => {
  it("reads a period written with short month names ('from 1 oct till 31 oct', '1 nov - 15 nov')", () => {
    const today = "2026-12-01";
    for (const [text, from, to] of [
      ["how much did we sell from 1 oct till 31 oct", "2026-10-01", "2026-10-31"],
      ["sales of Baltic Wings from 1 nov to 15 nov", "2026-11-01", "2026-11-15"],
    ] as const) {
      const [call] = parse(text, { ...balticSupervisor, today });
      expect([
        text,
        call?.name,
        (call?.args as { date_from?: string; date_to?: string } | undefined)?.date_from,
      ]).toEqual([text, "sales_figures", from]);
      expect((call?.args as { date_to?: string } | undefined)?.date_to).toBe(to);
    }
  });

  it("covers '… then switch it on' after pieces that ask for no action of their own ('nowy kanał X dla P, kod nego N, potem go włącz')", () => {
    for (const text of [
      'nowy kanał "Galileo PL" dla Baltic Wings, kod nego VIS88, potem go włącz',
      'new channel "Galileo PL" for Baltic Wings, nego code VIS88, then switch it on',
    ])
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
  });
});

describe("assistant understanding (issue 25): Spanish money words", () => {
  it("reads 'grivnas', 'pon … en el saldo' and 'quítale'", () => {
    for (const [text, kind, minor, currency] of [
      ["Recarga 2 mil grivnas a Baltic Wings Riga, motivo: factura 55", "top_up", 200000, "UAH"],
      ["Pon 12k EUR en el saldo de Baltic Wings Riga, motivo pago 9", "top_up", 1200000, "EUR"],
      ["Quítale 200 EUR a Baltic Wings Riga, motivo: corrección", "correction", -20000, "EUR"],
    ] as const) {
      const [call] = parse(text);
      const body = (call?.args as { body?: { kind?: string; amount?: unknown } } | undefined)?.body;
      expect([text, call?.name, body?.kind, body?.amount]).toEqual([
        text,
        "balance_transaction",
        kind,
        { amount: minor, currency },
      ]);
    }
  });
});

describe("assistant understanding (issue 25): a supervisor replaced with Polish 'wymień' / 'podmień'", () => {
  it("removes the one named and invites the other to their partner", () => {
    for (const text of [
      "Wymień Ivana Petrenkę na Annę Lis, anna.lis@baltic.test",
      "podmień Ivan Petrenko na Annę Lis (anna.lis@baltic.test)",
    ]) {
      const calls = parse(text);
      expect([text, calls.map((c) => c.name)]).toEqual([text, ["remove_supervisor", "invite_supervisor"]]);
      expect([text, (calls[0]?.args as { supervisor_id?: string } | undefined)?.supervisor_id]).toEqual([
        text,
        "u-ivan",
      ]);
    }
  });
});

describe("assistant safety (issue 25): a short first name in a case of its own", () => {
  it("takes 'Ewę' (Ewa) as the name the plan invites, not an unknown name", () => {
    expect(verdictOf("Wymień Ivana Petrenkę na Ewę Lis, ewa.lis@baltic.test")).toEqual({ kind: "ok" });
  });
});
