import { type Language, LOCALE_TAGS } from "./i18n.ts";

/** ISO 3166-1 alpha-2 codes of the countries that issue travel documents; names come from Intl per language. */
const CODES =
  "AD AE AF AG AL AM AO AR AT AU AZ BA BB BD BE BF BG BH BI BJ BN BO BR BS BT BW BY BZ CA CD CF CG CH CI CL CM CN CO CR CU CV CY CZ DE DJ DK DM DO DZ EC EE EG ER ES ET FI FJ FM FR GA GB GD GE GH GM GN GQ GR GT GW GY HK HN HR HT HU ID IE IL IN IQ IR IS IT JM JO JP KE KG KH KI KM KN KP KR KW KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MG MH MK ML MM MN MO MR MT MU MV MW MX MY MZ NA NE NG NI NL NO NP NR NZ OM PA PE PG PH PK PL PS PT PW PY QA RO RS RU RW SA SB SC SD SE SG SI SK SL SM SN SO SR SS ST SV SY SZ TD TG TH TJ TL TM TN TO TR TT TV TW TZ UA UG US UY UZ VA VC VE VN VU WS XK YE ZA ZM ZW".split(
    " ",
  );

export interface CountryOption {
  value: string;
  label: string;
}

const cache = new Map<Language, CountryOption[]>();

/** Countries for a select, named and sorted in the interface language. */
export function countryOptions(language: Language): CountryOption[] {
  let options = cache.get(language);
  if (!options) {
    const tag = LOCALE_TAGS[language];
    const names = new Intl.DisplayNames(tag, { type: "region", fallback: "code" });
    const collator = new Intl.Collator(tag);
    options = CODES.map((code) => ({ value: code, label: names.of(code) ?? code })).sort((a, b) =>
      collator.compare(a.label, b.label),
    );
    cache.set(language, options);
  }
  return options;
}

const regionNames = new Map<Language, Intl.DisplayNames>();

/** One country's name in the interface language (CLDR through Intl); the code itself when Intl does not know it. */
export function countryName(code: string, language: Language): string {
  let names = regionNames.get(language);
  if (!names) {
    names = new Intl.DisplayNames(LOCALE_TAGS[language], { type: "region", fallback: "code" });
    regionNames.set(language, names);
  }
  try {
    return names.of(code) ?? code;
  } catch {
    return code; // not a region code Intl accepts
  }
}
