import { Menu, VisuallyHidden } from "@mantine/core";
import { IconCheck } from "@tabler/icons-react";
import { useActorRef, useSelector } from "@xstate/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { LANGUAGES, type Language, LOCALE_TAGS, useSiteLanguage } from "../../../lib/i18n.ts";
import { LANGUAGE_NAMES } from "../../../lib/language-names.ts";
import { languageDropdownMachine } from "../machines/language-dropdown.machine.ts";
import { LanguageButton, type LanguagePickerProps } from "./language-button.tsx";

export type { LanguagePickerProps };

/** The language picker itself; the header loads it when the user reaches for it (./language-picker.tsx). */
export default function LanguageMenu({
  select = "",
  languages = LANGUAGES,
  isNotWebsiteLang = false,
  onChange,
  intent,
}: LanguagePickerProps) {
  const { t } = useTranslation("language");
  const siteLanguage = useSiteLanguage();
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);
  const [machine] = useState(() =>
    languageDropdownMachine.provide({
      actions: { reportChoice: (_, params) => onChangeRef.current?.(params.language) },
    }),
  );
  const dropdown = useActorRef(machine, { input: { selected: select, isNotWebsiteLang } });
  const opened = useSelector(dropdown, (snapshot) => snapshot.matches("open"));
  const selected = useSelector(dropdown, (snapshot) => snapshot.context.selected);
  const announced = useSelector(dropdown, (snapshot) => snapshot.context.announced);

  useEffect(() => {
    dropdown.send({ type: "selection.sync", selected: select });
  }, [select, dropdown]);

  // What the user did with the stand-in button while this code loaded.
  const button = useRef<HTMLButtonElement>(null);
  const [initialIntent] = useState(intent);
  useEffect(() => {
    if (initialIntent?.focus) button.current?.focus();
    if (initialIntent?.open) dropdown.send({ type: "dropdown.open" });
  }, [initialIntent, dropdown]);

  const current: Language | "" = isNotWebsiteLang ? selected : siteLanguage;

  return (
    <>
      <Menu
        opened={opened}
        onChange={(open) => dropdown.send({ type: open ? "dropdown.open" : "dropdown.close" })}
        position="bottom-end"
        shadow="md"
        width={180}
        // No focus placeholder: a role="presentation" element with a tabindex fails axe (aria-required-children).
        withInitialFocusPlaceholder={false}
      >
        <Menu.Target>
          <LanguageButton ref={button} current={current} />
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{t("choose")}</Menu.Label>
          {languages.map((language) => (
            <Menu.Item
              key={language}
              lang={LOCALE_TAGS[language]}
              aria-current={language === current ? "true" : undefined}
              rightSection={language === current ? <IconCheck size={14} /> : null}
              fw={language === current ? 600 : undefined}
              onClick={() => dropdown.send({ type: "language.choose", language })}
            >
              {LANGUAGE_NAMES[language]}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <VisuallyHidden role="status" aria-live="polite">
        {announced ? t("announce", { language: LANGUAGE_NAMES[announced] }) : ""}
      </VisuallyHidden>
    </>
  );
}
