import { describe, expect, it } from "@jest/globals";
import { parse, verdictOf } from "./understanding-world.ts";

/**
 * Issue 25's understanding, session 37: general causes behind the sixth table's misses, each tested in new phrasings
 * of its own (no table's rows), in several languages, over the understanding tests' world (names no table uses).
 */

const newPartnerFlag = (name: string, flag: string) => [
  { name: "create_partner", args: { body: { name } } },
  { name: "set_partner_flag", args: { agency_id: "$new:0", flag, body: { value: true } } },
];

describe("assistant understanding (issue 25): create a partner, then switch one of its options on", () => {
  it("is two steps, the switch on the partner the first step creates, when the switch has a verb of its own", () => {
    for (const [text, name, flag] of [
      ["add partner 'Sky Lane', then enable the production api for it", "Sky Lane", "production_api_on"],
      ["create partner Sky Lane and switch on its corporate number", "Sky Lane", "corporate_number_on"],
      [
        "створи партнера «Карпати Тур» і ввімкни йому ghost segments",
        "Карпати Тур",
        "ghost_segments_remarks_on",
      ],
      ["załóż partnera Tatry Tours, potem włącz mu numer korporacyjny", "Tatry Tours", "corporate_number_on"],
      ["crée le partenaire Lac Bleu et active-lui l'API de production", "Lac Bleu", "production_api_on"],
      ["crea el socio Sol Rutas y luego actívale el número corporativo", "Sol Rutas", "corporate_number_on"],
    ] as const) {
      expect([text, parse(text)]).toEqual([text, newPartnerFlag(name, flag)]);
      expect([text, verdictOf(text)]).toEqual([text, { kind: "ok" }]);
    }
  });

  it("keeps a switch given with the create ('with … on') in the one create", () => {
    expect(parse("register partner 'Sky Lane' with the production API switched on")).toEqual([
      { name: "create_partner", args: { body: { name: "Sky Lane", production_api_on: true } } },
    ]);
    for (const [text, flag] of [
      ["załóż partnera Tatry Tours i włączonym numerem korporacyjnym", "corporate_number_on"],
      ["створи партнера Tatry Tours і увімкненим корпоративним номером", "corporate_number_on"],
      ["crée le partenaire Tatry Tours et l'API de production activée", "production_api_on"],
      ["crea el socio Tatry Tours y ghost segments activados", "ghost_segments_remarks_on"],
    ] as const)
      expect([text, parse(text)]).toEqual([
        text,
        [{ name: "create_partner", args: { body: { name: "Tatry Tours", [flag]: true } } }],
      ]);
  });
});
