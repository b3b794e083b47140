// Renders the first screens the server sends with a signed-in page (app/first-screen.tsx), in every language, into
// dist/first-screens.json after `vite build` (`npm run build -w frontend`): the page's largest text paints from the
// page itself, before any script runs (issue 27, mobile LCP). The server picks the screen for the address, the list
// and the browser's language (scripts/src/first-screen.ts). Rendered here, once, from the components the pages use:
// no per-request rendering, and no second copy of the page's markup to keep in step.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { MantineProvider } from "@mantine/core";
import { createInstance } from "i18next";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { FirstScreen, type FirstScreenOf } from "../src/app/first-screen.tsx";
import { cssVariablesResolver, theme } from "../src/app/theme.ts";
import { BOOKING_LISTS } from "../src/features/bookings/lists.ts";

const locales = new URL("../src/locales/", import.meta.url);
const dist = new URL("../dist/", import.meta.url);

/** i18next's tags (frontend/src/lib/i18n.ts, LOCALE_TAGS): plural rules exist for "uk", not the product's "ua". */
const TAGS: Record<string, string> = { en: "en", ua: "uk", fr: "fr", es: "es", pl: "pl" };

/** The screens by name: what scripts/src/first-screen.ts asks for. */
const SCREENS: Record<string, FirstScreenOf> = {
  search: { page: "search" },
  ...Object.fromEntries(
    BOOKING_LISTS.flatMap((list) => [
      [`bookings-${list}`, { page: "bookings", list, empty: false }],
      [`bookings-${list}-empty`, { page: "bookings", list, empty: true }],
    ]),
  ),
};

async function render(language: string, of: FirstScreenOf): Promise<string> {
  const catalogues = Object.fromEntries(
    readdirSync(new URL(`${language}/`, locales))
      .filter((file) => file.endsWith(".json"))
      .map((file) => [
        file.slice(0, -".json".length),
        JSON.parse(readFileSync(new URL(`${language}/${file}`, locales), "utf8")),
      ]),
  );
  const tag = TAGS[language] ?? language;
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: tag,
    resources: { [tag]: catalogues },
    defaultNS: "common",
    interpolation: { escapeValue: false },
  });
  return renderToStaticMarkup(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <I18nextProvider i18n={i18n}>
        <FirstScreen of={of} />
      </I18nextProvider>
    </MantineProvider>,
  );
}

const screens: Record<string, Record<string, string>> = {};
for (const [name, of] of Object.entries(SCREENS)) {
  screens[name] = {};
  for (const language of Object.keys(TAGS)) screens[name][language] = await render(language, of);
}
writeFileSync(new URL("first-screens.json", dist), JSON.stringify(screens));
