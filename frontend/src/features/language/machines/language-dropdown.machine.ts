import { assign, setup } from "xstate";
import { track } from "../../../lib/analytics.ts";
import { isLanguage, type Language, setSiteLanguage } from "../../../lib/i18n.ts";

export interface LanguageDropdownInput {
  /** The chosen language; '' follows the site language. */
  selected: string;
  /** The picker chooses a language for something else (e.g. a document), not for the interface. */
  isNotWebsiteLang: boolean;
}

export interface LanguageDropdownContext {
  selected: Language | "";
  isNotWebsiteLang: boolean;
  /** The last language chosen, for the screen-reader announcement. */
  announced: Language | null;
}

export type LanguageDropdownEvent =
  | { type: "dropdown.open" }
  | { type: "dropdown.close" }
  | { type: "language.choose"; language: Language }
  | { type: "selection.sync"; selected: string };

/** The language dropdown (seed spec, section 4): open or closed; choosing a language closes it. */
export const languageDropdownMachine = setup({
  types: {
    input: {} as LanguageDropdownInput,
    context: {} as LanguageDropdownContext,
    events: {} as LanguageDropdownEvent,
  },
  actions: {
    rememberChoice: assign((_, params: { language: Language }) => ({
      selected: params.language,
      announced: params.language,
    })),
    syncSelection: assign((_, params: { selected: string }) => ({
      selected: isLanguage(params.selected) ? params.selected : "",
    })),
    applySiteLanguage: (_, params: { language: Language }) => {
      void setSiteLanguage(params.language);
    },
    trackChange: ({ context }, params: { language: Language }) => {
      track("Change language", { language: params.language, website_language: !context.isNotWebsiteLang });
    },
    // The host component supplies this to hear about the choice.
    reportChoice: (_, _params: { language: Language }) => {},
  },
  guards: {
    choosesWebsiteLanguage: ({ context }) => !context.isNotWebsiteLang,
  },
}).createMachine({
  id: "languageDropdown",
  context: ({ input }) => ({
    selected: isLanguage(input.selected) ? input.selected : "",
    isNotWebsiteLang: input.isNotWebsiteLang,
    announced: null,
  }),
  initial: "closed",
  on: {
    "selection.sync": {
      actions: { type: "syncSelection", params: ({ event }) => ({ selected: event.selected }) },
    },
  },
  states: {
    closed: {
      on: { "dropdown.open": "open" },
    },
    open: {
      on: {
        "dropdown.close": "closed",
        "language.choose": [
          {
            guard: "choosesWebsiteLanguage",
            target: "closed",
            actions: [
              { type: "rememberChoice", params: ({ event }) => ({ language: event.language }) },
              { type: "applySiteLanguage", params: ({ event }) => ({ language: event.language }) },
              { type: "trackChange", params: ({ event }) => ({ language: event.language }) },
              { type: "reportChoice", params: ({ event }) => ({ language: event.language }) },
            ],
          },
          {
            target: "closed",
            actions: [
              { type: "rememberChoice", params: ({ event }) => ({ language: event.language }) },
              { type: "trackChange", params: ({ event }) => ({ language: event.language }) },
              { type: "reportChoice", params: ({ event }) => ({ language: event.language }) },
            ],
          },
        ],
      },
    },
  },
});
