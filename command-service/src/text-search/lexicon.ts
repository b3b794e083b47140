import type { Cabin } from "@skyward/contracts/offers";
import type { DayPeriod } from "@skyward/contracts/text-search";

/** Words for 1-9 in the five languages (declined forms too); "a"/"an" only count before a passenger word. */
export const NUMBER_WORDS: Record<string, number> = Object.fromEntries(
  (
    [
      [
        1,
        "one a an un une uno una один одна одного одну одним одною одній одне однієї однією jeden jedna jedno jednym jednego jedną",
      ],
      [
        2,
        "two couple deux dos два дві двох двоє двома dwa dwie dwoje dwóch dwojga dwójka dwójką dwójkę dwoma",
      ],
      [3, "three trois tres три трьох троє трьома trzy troje trzech trojga trójka trójką trójkę"],
      [
        4,
        "four quatre cuatro чотири чотирьох четверо чотирма cztery czworo czterech czworga czwórka czwórką",
      ],
      [5, "five cinq cinco п'ять п'ятьох п'ятеро pięć pięcioro pięciu"],
      [6, "six seis шість шістьох шестеро sześć sześcioro sześciu"],
      [7, "seven sept siete сім сімох семеро siedem siedmioro siedmiu"],
      [8, "eight huit ocho вісім вісьмох восьмеро osiem ośmioro ośmiu"],
      [9, "nine neuf nueve дев'ять дев'ятьох дев'ятеро dziewięć dziewięcioro dziewięciu"],
    ] as const
  ).flatMap(([n, words]) => words.split(" ").map((w) => [normaliseWord(w), n])),
);

/** The articles that mean "one" only before a passenger word. */
export const ARTICLES = new Set(["a", "an", "un", "une", "uno", "una"]);

function normaliseWord(w: string): string {
  return w
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/ł/g, "l")
    .replace(/[’ʼ]/g, "'")
    .normalize("NFC");
}

const words = (list: string) => list.split(/\s+/).filter(Boolean).map(normaliseWord);
const set = (list: string) => new Set(words(list));

export type PassengerKind = "adults" | "children" | "infants" | "people" | "companions";

export const PASSENGER_NOUNS: Record<string, PassengerKind> = Object.fromEntries([
  ...words(
    // Agents' short forms too: "2 дор", "2 dor.".
    "adult adults adt adl grown-up grown-ups дор дорос dor doros дорослий дорослого дорослі дорослих дорослими дорослим дорослому доросла дорослої дорослу " +
      "dorosły dorosła dorosłe dorosłych dorosłymi dorosłego dorosłą dorosłym adulte adultes adulto adultos adulta adultas",
  ).map((w) => [w, "adults"] as const),
  ...words(
    "child children chd chld kid kids дит реб dziec дитина дитину дитиною дитини діти дітей дітьми дитям дітям дитини дитя " +
      "dziecko dzieckiem dzieci dziećmi dziecka dzieciaki dzieciakiem enfant enfants niño niños niña niñas menor menores",
  ).map((w) => [w, "children"] as const),
  ...words(
    "infant infants inf baby babies немовля немовлям немовлят немовляти немовлята немовлятами малюк малюком малюка " +
      "niemowlę niemowlęciem niemowlęta niemowląt niemowlaka niemowlakiem bobas bobasem bébé bébés nourrisson nourrissons bebé bebés infante infantes",
  ).map((w) => [w, "infants"] as const),
  ...words(
    "wife husband partner friend colleague mum mom dad mother father дружиною чоловіком дружина чоловік другом подругою колегою мамою татом " +
      "żoną mężem żona mąż żony męża partnera partnerki partnerem partnerką przyjacielem przyjaciółką kolegą mamą tatą femme mari conjoint ami amie collègue mère père " +
      "esposa esposo mujer marido pareja amigo amiga colega madre padre",
  ).map((w) => [w, "companions"] as const),
  ...words(
    "people persons person passengers passenger travellers travelers traveller traveler pax " +
      // abbreviations agents type: "2 os.", "3 pers.", "2 ос.", "2 чол."
      "os pers ос чол " +
      "людей люди людина особи осіб особа пасажирів пасажири пасажира пасажир " +
      "osoby osób osoba osobę pasażerów pasażerowie pasażer pasażera " +
      "personnes personne passagers passager voyageurs voyageur personas persona pasajeros pasajero viajeros viajero " +
      // "3 tickets", "два квитки", "4 bilety", "2 billets", "3 billetes", "2 seats / places / plazas / miejsca / місця"
      "tickets seats квитки квитків місця місць bilety biletów miejsca miejsc billets places billetes plazas asientos",
  ).map((w) => [w, "people"] as const),
]);

/** Words between a count and its noun that change nothing ("2 small children", "двоє маленьких дітей"). */
export const PASSENGER_FILLERS = set(
  "small little young year-old маленьких маленька маленьку маленькою маленькі малих małe małych małym małymi małego petits petit petite petites pequeños pequeño pequeña",
);

/**
 * Numbers that count people on their own, with no noun ("на 8 березня, двоє", "we dwoje", "удвох"): Ukrainian and
 * Polish collective numerals and "in twos" words. The count is the travellers.
 */
export const COLLECTIVE_COUNTS: ReadonlyMap<string, number> = new Map(
  (
    [
      [2, "двоє удвох вдвох dwoje"],
      [3, "троє утрьох втрьох troje"],
      [4, "четверо учотирьох вчотирьох czworo"],
      [5, "п'ятеро pięcioro"],
      [6, "шестеро sześcioro"],
    ] as const
  ).flatMap(([n, list]) => words(list).map((w) => [w, n] as const)),
);

/** "with" before a passenger ("з дитиною", "avec un bébé"): the passenger is one more. */
export const WITH_WORDS = set("with з із зі z ze avec con plus і та й i y et and");

/** "for two", "на двох", "dla dwóch", "pour deux", "para dos": the count is the adults. */
export const FOR_WORDS = set("for на для dla pour para");

export const CABINS: readonly (readonly [string, Cabin])[] = [
  ["premium economy", "premium_economy"],
  ["premium", "premium_economy"],
  ["преміум економ", "premium_economy"],
  ["преміум", "premium_economy"],
  ["premium ekonomiczna", "premium_economy"],
  ["classe premium", "premium_economy"],
  ["premium économique", "premium_economy"],
  ["turista premium", "premium_economy"],
  // Shortened and turned round: "premium éco", "eco premium", "prem eco", "економ преміум", "económica premium".
  ["premium eco", "premium_economy"],
  ["eco premium", "premium_economy"],
  ["prem eco", "premium_economy"],
  ["premium econ", "premium_economy"],
  ["premium ekonomia", "premium_economy"],
  ["premium ekonomiczną", "premium_economy"],
  ["premium eko", "premium_economy"],
  ["ekonomiczna premium", "premium_economy"],
  ["економ преміум", "premium_economy"],
  ["преміум економ клас", "premium_economy"],
  ["premium économie", "premium_economy"],
  ["économique premium", "premium_economy"],
  ["premium económica", "premium_economy"],
  ["económica premium", "premium_economy"],
  ["premium turista", "premium_economy"],
  ["business class", "business"],
  ["business", "business"],
  ["biz", "business"],
  ["бізнес клас", "business"],
  ["бізнес класом", "business"],
  ["бізнес", "business"],
  ["бізнесом", "business"],
  ["klasa biznes", "business"],
  ["klasą biznes", "business"],
  ["klasą business", "business"],
  ["klasa business", "business"],
  ["biznes", "business"],
  // The instrumental ("lecimy biznesem"); the locative below.
  ["biznesem", "business"],
  ["biznesowa", "business"],
  ["biznesową", "business"],
  // The locative ("w biznesie", "w klasie biznesowej", "у бізнесі", "в бізнес класі"): the same cabin.
  ["biznesie", "business"],
  ["biznesowej", "business"],
  ["klasie biznes", "business"],
  ["klasie business", "business"],
  ["бізнесі", "business"],
  ["бізнес класі", "business"],
  ["classe affaires", "business"],
  ["affaires", "business"],
  ["clase business", "business"],
  ["clase ejecutiva", "business"],
  ["ejecutiva", "business"],
  ["negocios", "business"],
  ["first class", "first"],
  ["1st class", "first"],
  ["first", "first"],
  ["перший клас", "first"],
  ["першим класом", "first"],
  ["першому класі", "first"],
  ["pierwsza klasa", "first"],
  ["pierwszą klasą", "first"],
  ["pierwszej klasie", "first"],
  ["première classe", "first"],
  ["en première", "first"],
  ["première", "first"],
  ["primera clase", "first"],
  ["primera", "first"],
  ["economy class", "economy"],
  ["economy", "economy"],
  ["coach", "economy"],
  ["економ клас", "economy"],
  ["економ класом", "economy"],
  ["економ", "economy"],
  ["економом", "economy"],
  ["економкласом", "economy"],
  ["klasa ekonomiczna", "economy"],
  ["klasą ekonomiczną", "economy"],
  ["ekonomiczna", "economy"],
  ["ekonomiczną", "economy"],
  ["ekonomiczny", "economy"],
  ["classe économique", "economy"],
  ["économique", "economy"],
  ["éco", "economy"],
  ["econ", "economy"],
  ["eko", "economy"],
  ["1ère classe", "first"],
  ["1re classe", "first"],
  ["1a clase", "first"],
  ["1ª clase", "first"],
  ["clase turista", "economy"],
  ["turista", "economy"],
  ["clase económica", "economy"],
  ["económica", "economy"],
];

export const TRIPS: readonly (readonly [string, "one_way" | "round_trip"])[] = [
  ["one way", "one_way"],
  ["oneway", "one_way"],
  ["one way only", "one_way"],
  ["single", "one_way"],
  ["no return", "one_way"],
  ["в один бік", "one_way"],
  ["в одну сторону", "one_way"],
  ["в один кінець", "one_way"],
  ["тільки туди", "one_way"],
  ["лише туди", "one_way"],
  ["без зворотного", "one_way"],
  ["w jedną stronę", "one_way"],
  ["tylko w jedną stronę", "one_way"],
  ["bez powrotu", "one_way"],
  ["aller simple", "one_way"],
  ["sans retour", "one_way"],
  ["solo ida", "one_way"],
  ["sólo ida", "one_way"],
  ["ida solamente", "one_way"],
  ["sin vuelta", "one_way"],
  ["round trip", "round_trip"],
  ["return trip", "round_trip"],
  ["return ticket", "round_trip"],
  ["there and back", "round_trip"],
  ["return", "round_trip"],
  ["туди і назад", "round_trip"],
  ["туди й назад", "round_trip"],
  ["туди назад", "round_trip"],
  ["туди та назад", "round_trip"],
  ["з поверненням", "round_trip"],
  ["w obie strony", "round_trip"],
  ["tam i z powrotem", "round_trip"],
  ["z powrotem", "round_trip"],
  ["aller retour", "round_trip"],
  ["ida y vuelta", "round_trip"],
];

/** Words after which a date is the return ("back Sunday", "назад у неділю", "retour le 15"). */
export const RETURN_MARKERS = set(
  "back return returning rtn ret rtrn coming home назад повернення поверненням повернутися повертаємося повертаюсь зворотний " +
    "зворотним зворотній зворотнім повертаючись повернусь повернемося повернутись " +
    "powrót powrotem powrotny powrotnym powrotu wracam wracamy wracając wrócić retour retournant rentrant revenir rentrer " +
    "revenant vuelta regreso regresando volviendo volver regresar",
);

export const DIRECT: readonly (readonly [string, true])[] = [
  ["direct", true],
  ["direct flight", true],
  ["direct flights", true],
  ["directs", true],
  ["nonstop", true],
  ["non stop", true],
  ["no stops", true],
  ["no layovers", true],
  ["no connections", true],
  ["no connection", true],
  ["no layover", true],
  ["no stopovers", true],
  ["no stopover", true],
  ["no transfers", true],
  ["without a connection", true],
  ["without layovers", true],
  ["without a layover", true],
  ["without stops", true],
  ["without connections", true],
  ["прямий", true],
  ["прямим", true],
  ["прямі", true],
  ["прямий рейс", true],
  ["прямим рейсом", true],
  ["прямі рейси", true],
  ["без пересадок", true],
  ["без пересадки", true],
  ["без зупинок", true],
  ["без стиковок", true],
  ["bezpośredni", true],
  ["bezpośrednio", true],
  ["bezpośrednie", true],
  ["bezpośrednim", true],
  ["bez przesiadek", true],
  ["bez przesiadki", true],
  ["bez międzylądowań", true],
  ["bez międzylądowania", true],
  ["bez przesiadania", true],
  ["vol direct", true],
  ["vols directs", true],
  ["sans escale", true],
  ["sans escales", true],
  ["sans correspondance", true],
  ["sans correspondances", true],
  ["pas de correspondance", true],
  ["aucune correspondance", true],
  ["pas d'escale", true],
  ["pas d escale", true],
  ["aucune escale", true],
  ["sans changement", true],
  ["directo", true],
  ["directos", true],
  ["vuelo directo", true],
  ["vuelos directos", true],
  ["sin escalas", true],
  ["sin escala", true],
  ["sin conexiones", true],
  ["sin conexion", true],
  ["sin transbordos", true],
  ["sin transbordo", true],
  ["sin paradas", true],
  ["ninguna escala", true],
];

/** Before a city: where the trip starts from. */
export const ORIGIN_MARKERS = set("from з із зі від z ze od de d depuis desde");
/** Before a city: where it goes. */
export const DESTINATION_MARKERS = set("to into towards до в у на do w we na a à vers pour para hacia au");

/** Before a carrier's name or code: "with LOT", "авіакомпанією МАУ", "liniami LOT", "avec Air France". */
export const CARRIER_MARKERS = set(
  "with on by airline carrier only авіакомпанією авіакомпанія авіакомпанії авіалінії рейсом liniami linie linią przewoźnik avec compagnie con aerolínea aerolinea",
);

/** Small words that mean nothing on their own: never reported as unrecognised. */
export const STOPWORDS = set(
  "a an the and or on at in for of to from with by via please flight flights ticket tickets fly flying want need " +
    "i me my we us our find search book looking look leaving leave depart departing going go trip class on the at around " +
    "і й та або в у на з із зі до від для о об по за рейс рейси квиток квитки квитків летіти лечу полетіти знайди знайти шукаю треба потрібно хочу будь ласка мені нам " +
    "i oraz lub w we na z ze do od dla o po za lot loty bilet bilety lecieć proszę szukam chcę znajdź potrzebuję " +
    "et ou le la les l d de du des à au aux en pour avec par vol vols billet billets s'il vous plaît je cherche trouver veux voudrais " +
    "y o el la los las de del al a en para con por vuelo vuelos billete billetes busco quiero necesito favor encontrar " +
    "this that ce cette este esta цей цю ten tę un une uno una потрібен потрібна потрібні lotu lotów volar voler mam chciałbym chciałabym мій моя моєю моїм moją moim mon ma mes mi mis his her",
);

/**
 * Times of day for the departure ("in the morning", "ввечері", "po południu", "le soir", "por la noche"), phrases
 * separated by "|". Spanish "mañana" alone is "tomorrow": only "por/de/en la mañana" is the morning.
 */
const PERIODS: Record<DayPeriod, string> = {
  morning:
    "morning|in the morning|early morning|mornings|morning flight|ранок|ранком|зранку|вранці|уранці|рано вранці|з ранку|" +
    "ранковий|ранковим|ранковому|rano|rankiem|z rana|przed południem|poranny|porannym|porankiem|matin|le matin|du matin|" +
    "dans la matinée|en matinée|matinée|por la mañana|de la mañana|en la mañana|mañana temprano|matutino|" +
    "early flight|first thing|first thing in the morning|before lunch|до обіду|з самого ранку|ранковим рейсом|" +
    "z samego rana|przed obiadem|tôt le matin|de bon matin|en début de matinée|en fin de matinée|" +
    "a primera hora|a primera hora de la mañana|antes de comer",
  afternoon:
    "afternoon|in the afternoon|afternoons|вдень|удень|після обіду|по обіді|пообідній|денний|денним|po południu|" +
    "popołudniu|popołudniowy|popołudniowym|après-midi|dans l'après-midi|en après-midi|por la tarde|de la tarde|en la tarde|" +
    "after lunch|midday|early afternoon|пополудні|по полудні|після полудня|денним рейсом|wczesnym popołudniem|" +
    "en début d'après-midi|en milieu de journée|a mediodía|a media tarde|después de comer",
  evening:
    "evening|in the evening|evenings|вечір|ввечері|увечері|вечором|вечірній|вечірнім|вечірньому|wieczorem|wieczór|" +
    "wieczorny|wieczornym|soir|le soir|du soir|en soirée|dans la soirée|soirée|en fin de journée|fin de journée|" +
    "por la noche|de la noche|en la noche|a última hora|vespertino|" +
    "late evening|after work|in the late afternoon|надвечір|пізно ввечері|вечірнім рейсом|późnym wieczorem|po pracy|" +
    "pod wieczór|wieczornym lotem|en début de soirée|en fin d'après-midi|tard le soir|al atardecer|a última hora de la tarde",
  night:
    "night|at night|overnight|red-eye|red eye|night flight|вночі|уночі|нічний|нічним|w nocy|nocą|nocny|nocnym|" +
    "la nuit|de nuit|vol de nuit|de madrugada|madrugada|nocturno|de noche|vuelo de noche",
};

export const DAY_PERIOD_PHRASES: readonly (readonly [string, DayPeriod])[] = (
  Object.entries(PERIODS) as [DayPeriod, string][]
).flatMap(([period, list]) => list.split("|").map((phrase) => [phrase, period] as const));
