/**
 * Common Ukrainian and Polish first names in their base (nominative) form, by gender, so a first name written in
 * another case after a verb ("запроси Ігоря", "прибери Оксану", "zaproś Piotra") is read back to its base form and
 * tells whether its surname beside it is a man's (Мельника → Мельник) or a woman's (Шевчук stays).
 */
const MASCULINE = [
  // Ukrainian
  "Іван",
  "Ігор",
  "Сергій",
  "Андрій",
  "Олександр",
  "Олексій",
  "Дмитро",
  "Петро",
  "Тарас",
  "Богдан",
  "Роман",
  "Василь",
  "Микола",
  "Михайло",
  "Юрій",
  "Володимир",
  "Віктор",
  "Євген",
  "Максим",
  "Остап",
  "Павло",
  "Степан",
  "Назар",
  "Олег",
  "Денис",
  "Артем",
  "Антон",
  "Ярослав",
  "Віталій",
  "Валерій",
  "Анатолій",
  "Григорій",
  "Федір",
  "Тимофій",
  "Марко",
  "Данило",
  "Кирило",
  "Костянтин",
  "Леонід",
  "Руслан",
  "Вадим",
  "Олесь",
  "Орест",
  "Святослав",
  "Станіслав",
  "Захар",
  "Матвій",
  "Геннадій",
  "Борис",
  "Ростислав",
  "Всеволод",
  "Лука",
  "Ілля",
  // Polish
  "Piotr",
  "Tomasz",
  "Marek",
  "Paweł",
  "Krzysztof",
  "Michał",
  "Jan",
  "Andrzej",
  "Łukasz",
  "Adam",
  "Jakub",
  "Kamil",
  "Mateusz",
  "Wojciech",
  "Marcin",
  "Grzegorz",
  "Rafał",
  "Dariusz",
  "Robert",
  "Karol",
  "Bartosz",
  "Szymon",
  "Maciej",
  "Artur",
  "Przemysław",
  "Stanisław",
  "Zbigniew",
  "Krystian",
  "Sebastian",
  "Damian",
  "Dawid",
  "Filip",
  "Igor",
  "Jacek",
  "Jerzy",
  "Józef",
  "Kacper",
  "Leszek",
  "Mirosław",
  "Patryk",
  "Ryszard",
  "Tadeusz",
  "Wiktor",
  "Witold",
];

const FEMININE = [
  // Ukrainian
  "Олена",
  "Оксана",
  "Ірина",
  "Наталія",
  "Наталя",
  "Юлія",
  "Марія",
  "Ганна",
  "Анна",
  "Тетяна",
  "Світлана",
  "Людмила",
  "Катерина",
  "Ольга",
  "Вікторія",
  "Софія",
  "Дарина",
  "Анастасія",
  "Марина",
  "Галина",
  "Надія",
  "Леся",
  "Олеся",
  "Христина",
  "Соломія",
  "Уляна",
  "Яна",
  "Алла",
  "Інна",
  "Лариса",
  "Валентина",
  "Зоряна",
  "Вероніка",
  "Діана",
  "Аліна",
  "Віра",
  "Лілія",
  "Ніна",
  "Єлизавета",
  "Євгенія",
  "Людмила",
  // Polish
  "Anna",
  "Maria",
  "Katarzyna",
  "Małgorzata",
  "Agnieszka",
  "Barbara",
  "Ewa",
  "Krystyna",
  "Elżbieta",
  "Zofia",
  "Marta",
  "Monika",
  "Joanna",
  "Magdalena",
  "Aleksandra",
  "Natalia",
  "Karolina",
  "Paulina",
  "Dorota",
  "Beata",
  "Justyna",
  "Iwona",
  "Alicja",
  "Julia",
  "Oliwia",
  "Weronika",
  "Halina",
  "Jadwiga",
  "Teresa",
  "Renata",
  "Urszula",
];

/** The case forms a base name takes after a verb (accusative, genitive), by its ending and gender. */
function formsOf(base: string, masculine: boolean): string[] {
  const stem = base.slice(0, -1);
  const last = base.slice(-1);
  if (masculine) {
    if (base === "Федір") return ["Федора"];
    if (base === "Marek") return ["Marka"];
    if (base === "Paweł") return ["Pawła"];
    if (last === "й" || last === "ь") return [`${stem}я`];
    if (last === "о") return [`${stem}а`];
    if (last === "а") return [`${stem}у`, `${stem}и`];
    if (last === "я") return [`${stem}ю`, `${stem}і`];
    return [`${base}а`, `${base}я`, `${base}a`];
  }
  if (last === "а") return [`${stem}у`, `${stem}и`, `${stem}і`];
  if (last === "я") return [`${stem}ю`, `${stem}ї`, `${stem}і`];
  if (last === "a") return [`${stem}ę`, `${stem}y`, `${stem}i`];
  return [];
}

const FORMS = new Map<string, { base: string; masculine: boolean }>();
for (const [list, masculine] of [
  [MASCULINE, true],
  [FEMININE, false],
] as const)
  for (const base of list)
    for (const form of formsOf(base, masculine))
      if (!FORMS.has(form.toLowerCase())) FORMS.set(form.toLowerCase(), { base, masculine });

/**
 * A first name written in a case other than its base form ("Ігоря", "Миколу", "Оксану", "Piotra"): its base form
 * and gender; undefined for a base form or a word that is no common first name in one of its case forms.
 */
export function inflectedFirstName(word: string): { base: string; masculine: boolean } | undefined {
  return FORMS.get(word.toLowerCase());
}

/**
 * A man's surname after his first name in the genitive/accusative, in its base form: Мельника → Мельник,
 * Бондаря → Бондар, Коваля → Коваль, Гордія → Гордій, Кравецького → Кравецький, Бойка → Бойко, Nowaka → Nowak.
 */
export function masculineSurname(name: string): string {
  if (name.length < 4) return name;
  for (const [ending, base] of [
    ["ського", "ський"],
    ["цького", "цький"],
    ["зького", "зький"],
    ["ого", "ий"],
    ["енка", "енко"],
    ["ря", "р"],
    ["ія", "ій"],
    ["я", "ь"],
  ] as const)
    if (name.endsWith(ending)) return name.slice(0, -ending.length) + base;
  if (/[иуюаеіо]ка$/u.test(name)) return name.slice(0, -1);
  if (/[йн]ка$/u.test(name)) return `${name.slice(0, -1)}о`;
  if (/[^аеєиіїоуюяaeiouy][aа]$/u.test(name)) return name.slice(0, -1);
  return name;
}
