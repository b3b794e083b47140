import { Loader, Select } from "@mantine/core";
import type { Language } from "@skyward/contracts/ids";
import { IconWorld } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { i18n, isLanguage, LANGUAGES } from "../../../lib/i18n.ts";
import { LANGUAGE_NAMES } from "../../../lib/language-names.ts";
import { notify } from "../../../lib/notifications.ts";
import { useUpdateLocale } from "../api/update-locale.ts";
import { SectionCard } from "./section-card.tsx";

/** The account's language: saved with update_locale and applied to the interface at once. */
export function LanguageCard({ language }: { language: Language }) {
  const { t } = useTranslation("account");
  const updateLocale = useUpdateLocale();
  const shown = updateLocale.isPending ? updateLocale.variables : language;

  return (
    <SectionCard title={t("language.title")} description={t("language.description")}>
      <Select
        label={t("language.label")}
        data={LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))}
        value={shown}
        onChange={(value) => {
          if (!isLanguage(value) || value === language) return;
          updateLocale.mutate(value, {
            // Said in the language just chosen: the interface has switched by now.
            onSuccess: () => notify({ text: i18n.t("account:language.saved"), type: "success" }),
          });
        }}
        allowDeselect={false}
        leftSection={<IconWorld size={16} />}
        rightSection={updateLocale.isPending ? <Loader size={14} /> : undefined}
        disabled={updateLocale.isPending}
      />
    </SectionCard>
  );
}
