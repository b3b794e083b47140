// Multi-city journeys typed as one line (issue 23.1): read slice by slice, never folded into a wrong round trip.
import { describe, expect, it } from "@jest/globals";
import { parseMultiCity } from "./multi-city.ts";
import { parseTextSearch } from "./parse.ts";

const today = "2026-11-29";
const slicesOf = (text: string) => parseMultiCity(text, { today })?.search.slices ?? null;

const KYIV_WARSAW_PARIS = [
  { origin: "KBP", destination: "WAW", departure_date: "2026-12-20" },
  { origin: "WAW", destination: "CDG", departure_date: "2026-12-23" },
  { origin: "CDG", destination: "KBP", departure_date: "2026-12-28" },
];

describe("multi-city lines", () => {
  it.each([
    ["en", "Kyiv to Warsaw on 20 December, then Warsaw to Paris on the 23rd, back to Kyiv on the 28th"],
    ["en", "Kyiv to Warsaw on 20 December then Paris on the 23rd then back to Kyiv on the 28th"],
    ["ua", "Київ — Варшава 20 грудня, потім Варшава — Париж 23 грудня, потім до Києва 28 грудня"],
    [
      "fr",
      "De Kyiv à Varsovie le 20 décembre, puis de Varsovie à Paris le 23 décembre, puis à Kyiv le 28 décembre",
    ],
  ])(
    "when the line (%s) names three slices, then each is read in order, the later ones leaving from where the one before landed: %s",
    (_language, text) => {
      expect(slicesOf(text)).toEqual(KYIV_WARSAW_PARIS);
      expect(parseMultiCity(text, { today })?.search.trip).toBe("multi_city");
    },
  );

  it("when passengers or a cabin come as a part of their own, then they count for the whole journey", () => {
    const answer = parseMultiCity(
      "Kyiv to Warsaw on 20 December, then Warsaw to Paris on the 23rd, 2 adults, business",
      { today },
    );
    expect(answer?.search).toMatchObject({ passengers: { adults: 2 }, cabin: "business" });
    expect(answer?.search.slices).toHaveLength(2);
  });

  it.each([
    "Kyiv to Warsaw on 20 December, back on the 27th",
    "Kyiv to Warsaw 20 December, 2 adults, business",
    "Kyiv to Warsaw tomorrow",
  ])(
    "when the line names one pair (%s), then it is no multi-city journey and the one-line parser answers",
    (text) => {
      expect(parseMultiCity(text, { today })).toBeNull();
    },
  );

  it("when the chips of a multi-city line are shown, then they sit at their place in the whole line", () => {
    const text = "Kyiv to Warsaw on 20 December, then Warsaw to Paris on the 23rd";
    const answer = parseMultiCity(text, { today });
    for (const chip of answer?.chips ?? []) {
      if (chip.span) expect(text.slice(chip.span.start, chip.span.end)).toBe(chip.text);
    }
    // The one-line parser alone reads the same line as a round trip: the mistake this module avoids.
    expect(parseTextSearch(text, { today }).search.trip).toBe("round_trip");
  });

  it("when a later slice gives a day without its month, then it is that day after the slice before it", () => {
    expect(
      slicesOf("Paris → Varsovie le 10 janvier, puis Varsovie → Kyiv le 14, puis Kyiv → Paris le 20 janvier"),
    ).toEqual([
      { origin: "CDG", destination: "WAW", departure_date: "2027-01-10" },
      { origin: "WAW", destination: "KBP", departure_date: "2027-01-14" },
      { origin: "KBP", destination: "CDG", departure_date: "2027-01-20" },
    ]);
  });

  it.each([
    ["pl", "Kijów Warszawa 20 grudnia, Warszawa Paryż 23, Paryż Kijów 28"],
    ["en", "Kyiv Warsaw 20 December, Warsaw Paris 23, Paris Kyiv 28"],
    ["ua", "Київ Варшава 20 грудня, Варшава Париж 23, Париж Київ 28"],
    ["fr", "Kyiv Varsovie 20 décembre, Varsovie Paris 23, Paris Kyiv 28"],
    ["es", "Kiev Varsovia 20 de diciembre, Varsovia París 23, París Kiev 28"],
  ])(
    "when a later slice (%s) gives its day as a bare number, then it is that day from the slice before: %s",
    (_language, text) => {
      expect(slicesOf(text)).toEqual(KYIV_WARSAW_PARIS);
    },
  );

  it("when a bare number's day has passed in the month of the slice before, then it is next month's", () => {
    expect(slicesOf("Kyiv Rome 27 December, Rome Paris 2, Paris Kyiv 6 January")).toEqual([
      { origin: "KBP", destination: "FCO", departure_date: "2026-12-27" },
      { origin: "FCO", destination: "CDG", departure_date: "2027-01-02" },
      { origin: "CDG", destination: "KBP", departure_date: "2027-01-06" },
    ]);
  });
});
