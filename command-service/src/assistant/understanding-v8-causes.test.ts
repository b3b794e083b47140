import { describe, expect, it } from "@jest/globals";
import { parse, verdictOf } from "./understanding-world.ts";

/**
 * Issue 25, session 37: a cause the eighth table (scored once, unseen) showed, tested in phrasings of its own over the
 * understanding tests' world. The wrong value, not a wrong entity: "back to paying from the balance instead of card"
 * planned paying by card.
 */

const channelPayment = (form: "card" | "balance") => [
  { name: "update_channel", args: { channel_id: "ch-baltic", body: { form_of_payment: form } } },
];

describe("assistant understanding (issue 25): a payment form given up for another", () => {
  it("sets the form written beside 'instead of', never the one given up", () => {
    for (const [text, form] of [
      ["Baltic Wings channel: pay from the balance instead of by card", "balance"],
      ["Baltic Wings channel should pay by card rather than from the balance", "card"],
      ["kanał Baltic Wings: płatność z salda zamiast kartą", "balance"],
      ["канал Baltic Wings: оплата з балансу замість картки", "balance"],
      ["canal Baltic Wings : paiement par le solde au lieu de la carte", "balance"],
      ["canal de Baltic Wings: pago con saldo en lugar de tarjeta", "balance"],
      ["canal de Baltic Wings: pago con tarjeta en vez del saldo", "card"],
    ] as const) {
      expect([text, parse(text)]).toEqual([text, channelPayment(form)]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });
});

describe("assistant understanding (issue 25): a value changed from one amount to another", () => {
  const markup = (amount: number) => [
    {
      name: "set_company_markups",
      args: {
        company_id: "co-riga",
        body: {
          markups: [
            {
              carrier: null,
              charge: { kind: "fixed", amount: { amount, currency: "EUR" }, per: "passenger" },
            },
          ],
        },
      },
    },
  ];

  it("sets the amount it goes to, never the one it comes from", () => {
    for (const text of [
      "Baltic Wings Riga: change the markup from 100 EUR to 150 EUR per passenger",
      "Baltic Wings Riga: cambia el margen de 100 EUR por 150 EUR por pasajero",
      "Baltic Wings Riga: zmień marżę ze 100 EUR na 150 EUR za pasażera",
      "Baltic Wings Riga: change la marge de 100 EUR à 150 EUR par passager",
      "Baltic Wings Riga: зміни націнку зі 100 EUR до 150 EUR за пасажира",
    ]) {
      expect([text, parse(text)]).toEqual([text, markup(15000)]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });
});
