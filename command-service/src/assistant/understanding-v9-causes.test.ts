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

const topUp = (minor: number, reason?: string) => [
  {
    name: "balance_transaction",
    args: {
      body: {
        company_id: "co-riga",
        kind: "top_up",
        amount: { amount: minor, currency: "EUR" },
        ...(reason ? { reason } : {}),
      },
    },
  },
];

describe("assistant understanding (issue 25): amounts in words, inflected", () => {
  it("reads Polish and Ukrainian number words in the case a preposition gives them", () => {
    for (const [text, minor] of [
      ["zasil Baltic Wings Riga kwotą pięciu tysięcy euro", 500000],
      ["doładuj Baltic Wings Riga o dwóch tysiącach euro", 200000],
      ["поповни Baltic Wings Riga на суму трьох тисяч євро", 300000],
      ["зарахуй Baltic Wings Riga десяти тисяч євро", 1000000],
    ] as const) {
      expect([text, parse(text)]).toEqual([text, topUp(minor)]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant understanding (issue 25): money put on a company", () => {
  it("reads money with its currency put on a company, no balance word, as a top-up", () => {
    for (const text of [
      "put 650 EUR on Baltic Wings Riga",
      "поклади 650 EUR на Baltic Wings Riga",
      "wrzuć 650 EUR na Baltic Wings Riga",
      "mets 650 EUR sur Baltic Wings Riga",
      "pon 650 EUR a Baltic Wings Riga",
    ]) {
      expect([text, parse(text)]).toEqual([text, topUp(65000)]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });

  it("never reads a credit limit put on a company as money added", () => {
    const text = "pon un límite de crédito de 900 EUR a Baltic Wings Riga";
    expect(parse(text).map((c) => c.name)).toEqual(["set_credit_limit"]);
  });
});

describe("assistant understanding (issue 25): a reason told as a sentence after a question", () => {
  it("keeps the reason with the request before the question mark", () => {
    for (const text of [
      "Would you top up Baltic Wings Riga with 420 EUR? The reason is invoice 77",
      "Pourriez-vous recharger Baltic Wings Riga de 420 EUR ? Le motif est invoice 77",
      "¿Puedes recargar Baltic Wings Riga con 420 EUR? El motivo es invoice 77",
      "Czy możesz doładować Baltic Wings Riga o 420 EUR? Powodem jest invoice 77",
    ]) {
      expect([text, parse(text)]).toEqual([text, topUp(42000, "invoice 77")]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant understanding (issue 25): a channel's source kept as it is", () => {
  it("switches the source asked and leaves the one kept", () => {
    for (const text of [
      "switch the web off on the Baltic Wings channel, keep the API on",
      "вимкни веб на каналі Baltic Wings, API залиш увімкненим",
      "wyłącz stronę na kanale Baltic Wings, API zostaw włączone",
      "coupe le web sur le canal de Baltic Wings, garde l'API activée",
      "apaga la web en el canal de Baltic Wings, deja la API activada",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "toggle_source_channel", args: { channel_id: "ch-baltic", source: "web", body: off } }],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });

  it("reads a browser plug-in as the extension", () => {
    for (const text of [
      "disable the browser plugin on the Baltic Wings channel",
      "вимкни плагін браузера на каналі Baltic Wings",
      "wyłącz wtyczkę na kanale Baltic Wings",
      "désactive le complément du navigateur sur le canal de Baltic Wings",
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
});

describe("assistant understanding (issue 25): a transaction fee by its other names", () => {
  it("removes the fee, never the partner", () => {
    for (const text of [
      "Quita la tasa de transacción de Baltic Wings",
      "Supprime la taxe de transaction de Baltic Wings",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "set_transaction_fee", args: { agency_id: "ag-baltic", body: { transaction_fee: null } } }],
      ]);
    }
  });
});

describe("assistant understanding (issue 25): a partner option said not to be", () => {
  it("switches the option off when the request says it should no longer happen", () => {
    for (const text of [
      "Baltic Wings should no longer cancel held bookings automatically",
      "Baltic Wings більше не має автоматично скасовувати бронювання",
      "Baltic Wings nie powinien już automatycznie anulować rezerwacji",
      "Baltic Wings ne doit plus annuler automatiquement les réservations",
      "Baltic Wings ya no debe cancelar automáticamente las reservas",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "set_partner_flag",
            args: { agency_id: "ag-baltic", flag: "auto_cancel_held_on", body: { value: false } },
          },
        ],
      ]);
    }
  });
});

describe("assistant understanding (issue 25): an option no longer needed, then switched off", () => {
  it("is one step: the negation of 'need' is no second switch", () => {
    for (const text of [
      "Baltic Wings does not need ghost segment remarks anymore, turn them off",
      "Baltic Wings більше не потребує ремарок ghost-сегментів, вимкни їх",
      "Baltic Wings nie potrzebuje już uwag ghost, wyłącz je",
      "Baltic Wings n'a plus besoin des remarques ghost, coupe-les",
      "Baltic Wings ya no necesita las observaciones ghost, apágalas",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "set_partner_flag",
            args: { agency_id: "ag-baltic", flag: "ghost_segments_remarks_on", body: { value: false } },
          },
        ],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant understanding (issue 25): how much is left, asked", () => {
  it("reads 'how much is left on the balance' as the balance question, nothing kept", () => {
    for (const text of [
      "cuánto saldo le queda a Baltic Wings Riga",
      "combien reste-t-il sur le solde de Baltic Wings Riga",
    ])
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "company_balance", args: { company_id: "co-riga" } }],
      ]);
  });
});

describe("assistant understanding (issue 25): sales asked of what the part before acted on", () => {
  const sales = {
    name: "sales_figures",
    args: { company_id: "co-riga", date_from: "2026-10-01", date_to: "2026-10-31" },
  };
  it("answers the sales of the company the command named, when the question names none", () => {
    for (const text of [
      "set Baltic Wings Riga's credit limit to 800 EUR and tell me how much it sold in October 2026",
      "встанови Baltic Wings Riga кредитний ліміт 800 EUR і скажи, скільки вона продала в жовтні 2026",
      "ustaw Baltic Wings Riga limit kredytowy 800 EUR i powiedz, ile sprzedała w październiku 2026",
      "fixe la limite de crédit de Baltic Wings Riga à 800 EUR et dis-moi combien elle a vendu en octobre 2026",
      "pon a Baltic Wings Riga un límite de crédito de 800 EUR y dime cuánto vendió en octubre de 2026",
    ])
      expect([text, parse(text).at(-1)]).toEqual([text, sales]);
  });

  it("keeps the caller's own sales when they say 'we'", () => {
    const text =
      "set Baltic Wings Riga's credit limit to 800 EUR and tell me how much we sold in October 2026";
    expect(parse(text).at(-1)).toEqual({
      name: "sales_figures",
      args: { date_from: "2026-10-01", date_to: "2026-10-31" },
    });
  });
});

describe("assistant understanding (issue 25): a company a part before created, named by a pronoun", () => {
  const created = {
    name: "create_company",
    args: { body: { agency_id: "ag-baltic", name: "Baltic Wings Vilnius" } },
  };
  it("gives a supervisor's new company its markup, never the partner's whole list", () => {
    for (const text of [
      "create the company Baltic Wings Vilnius and give it a 4% markup",
      "створи компанію Baltic Wings Vilnius і дай їй націнку 4%",
      "utwórz firmę Baltic Wings Vilnius i daj jej marżę 4%",
      "crée la société Baltic Wings Vilnius et donne-lui une marge de 4 %",
      "crea la empresa Baltic Wings Vilnius y ponle a ella un margen del 4 %",
    ]) {
      expect([text, parse(text, balticSupervisor)]).toEqual([
        text,
        [
          created,
          {
            name: "set_company_markups",
            args: {
              company_id: "$new:0",
              body: { markups: [{ carrier: null, charge: { kind: "percent", bps: 400 } }] },
            },
          },
        ],
      ]);
    }
  });

  it("switches the channel on for the new company, not the channel as a whole", () => {
    for (const text of [
      "create the company Baltic Wings Vilnius and switch our channel on for it",
      "створи компанію Baltic Wings Vilnius і увімкни для неї наш канал",
      "utwórz firmę Baltic Wings Vilnius i włącz dla niej nasz kanał",
      "crée la société Baltic Wings Vilnius et active notre canal pour elle",
      "crea la empresa Baltic Wings Vilnius y activa nuestro canal para ella",
    ]) {
      expect([text, parse(text, balticSupervisor)]).toEqual([
        text,
        [
          created,
          {
            name: "toggle_company_channel",
            args: { channel_id: "ch-baltic", company_id: "$new:0", body: on },
          },
        ],
      ]);
    }
  });
});

describe("assistant understanding (issue 25): how far below zero a company may go", () => {
  it("reads it as the company's credit limit", () => {
    for (const text of [
      "Baltic Wings Riga may go 4k EUR into the red",
      "Baltic Wings Riga може піти в мінус на 4 тис. євро",
      "Baltic Wings Riga może zejść na minus do 4 tys. euro",
      "Baltic Wings Riga peut aller jusqu'à 4000 EUR en négatif",
      "Baltic Wings Riga puede quedar en números rojos hasta 4 mil euros",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [
          {
            name: "set_credit_limit",
            args: { company_id: "co-riga", body: { credit_limit: { amount: 400000, currency: "EUR" } } },
          },
        ],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });

  it("keeps a deduction written with 'minus' a deduction", () => {
    const text = "спиши з Baltic Wings Riga 500 євро в мінус";
    expect(parse(text).map((c) => c.name)).toEqual(["balance_transaction"]);
  });
});

describe("assistant understanding (issue 25): a person's name told as it is now", () => {
  it("changes the surname or first name told, no change verb written", () => {
    for (const [text, body] of [
      ["Ivan Petrenko's last name is now Lis-Petrenko", { last_name: "Lis-Petrenko" }],
      ["прізвище Ivan Petrenko відтепер Лис", { last_name: "Лис" }],
      ["nazwisko Ivan Petrenko to od teraz Lis", { last_name: "Lis" }],
      ["le prénom de Ivan Petrenko est maintenant Jean", { first_name: "Jean" }],
      ["el apellido de Ivan Petrenko ahora es Lis", { last_name: "Lis" }],
    ] as const) {
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "update_supervisor", args: { agency_id: "ag-baltic", supervisor_id: "u-ivan", body } }],
      ]);
    }
  });
});

describe("assistant understanding (issue 25): a reason told first, then the request", () => {
  it("reads a negation in the reason's own piece as no negation of the request", () => {
    for (const text of [
      "we don't work with Baltic Wings any more, delete the partner",
      "ми вже не співпрацюємо з Baltic Wings, видали партнера",
      "nie współpracujemy już z Baltic Wings, usuń partnera",
      "nous ne travaillons plus avec Baltic Wings, supprime le partenaire",
      "ya no colaboramos con Baltic Wings, borra el partner",
    ]) {
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "delete_partner", args: { agency_id: "ag-baltic" } }],
      ]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
    // A deletion said not to be done still asks for none.
    expect(parse("don't delete Baltic Wings")).toEqual([]);
  });

  it("reads a first part told as done (a past tense) as the reason, not a part left over", () => {
    for (const text of [
      "the Riga office has closed, delete the company Baltic Wings Riga",
      "ризький офіс закрили, видали компанію Baltic Wings Riga",
      "biuro w Rydze zamknęliśmy, usuń firmę Baltic Wings Riga",
      "le bureau de Riga a fermé, supprimez la société Baltic Wings Riga",
      "hemos cerrado la oficina de Riga, elimina la empresa Baltic Wings Riga",
    ]) {
      expect([text, parse(text, balticSupervisor)]).toEqual([
        text,
        [{ name: "delete_company", args: { company_id: "co-riga" } }],
      ]);
      expect([text, verdictOf(text, balticSupervisor)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant understanding (issue 25): Spanish 'para' as the verb to stop", () => {
  it("stops what it names when no other switch is written", () => {
    for (const [text, call] of [
      [
        "para la emisión en toda la plataforma",
        { name: "toggle_global_gate", args: { gate: "main", body: off } },
      ],
      [
        "para ya la emisión de Baltic Wings",
        { name: "toggle_partner_gate", args: { agency_id: "ag-baltic", body: off } },
      ],
    ] as const)
      expect([text, parse(text)]).toEqual([text, [call]]);
    // "para" as "for" beside another switch stays "for".
    expect(parse("para Baltic Wings, abre la emisión")).toEqual([
      { name: "toggle_partner_gate", args: { agency_id: "ag-baltic", body: on } },
    ]);
  });
});

describe("assistant understanding (issue 25): someone else's bookings", () => {
  it("reads agents no longer seeing someone else's bookings as sharing off", () => {
    for (const text of [
      "агенти Baltic Wings Riga не мають бачити чужих бронювань",
      "agenci Baltic Wings Riga nie mogą widzieć cudzych rezerwacji",
      "les agents de Baltic Wings Riga ne doivent pas voir les réservations d'autrui",
      "los agentes de Baltic Wings Riga no deben ver las reservas ajenas",
    ])
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "set_shared_bookings", args: { company_id: "co-riga", body: off } }],
      ]);
  });
});
