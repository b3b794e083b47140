import { Button, type ButtonProps } from "@mantine/core";
import { IconChevronDown, IconWorld } from "@tabler/icons-react";
import type { ComponentPropsWithRef } from "react";
import { useTranslation } from "react-i18next";
import { useDeferredMenu } from "../../../components/ui/deferred-menu.ts";
import { type Language, useSiteLanguage } from "../../../lib/i18n.ts";
import { LANGUAGE_NAMES } from "../../../lib/language-names.ts";
import type { LanguagePickerProps } from "./language-menu.tsx";

export type { LanguagePickerProps };

type LanguageButtonProps = ButtonProps & ComponentPropsWithRef<"button"> & { current: Language | "" };

/** The picker's button: the same before and after its menu's code is in. */
export function LanguageButton({ current, ...props }: LanguageButtonProps) {
  const { t } = useTranslation("language");
  return (
    <Button
      variant="subtle"
      color="gray"
      size="compact-sm"
      leftSection={<IconWorld size={16} />}
      rightSection={<IconChevronDown size={14} />}
      aria-label={current ? `${t("label")}: ${LANGUAGE_NAMES[current]}` : t("choose")}
      {...props}
    >
      {current ? LANGUAGE_NAMES[current] : t("choose")}
    </Button>
  );
}

const loadMenu = () => import("./language-menu.tsx");

/** The language picker (seed spec, section 3); its menu and state machine load when the user reaches for it. */
export function LanguagePicker(props: LanguagePickerProps) {
  const siteLanguage = useSiteLanguage();
  const { Menu, trigger, intent } = useDeferredMenu(loadMenu);
  if (Menu) return <Menu {...props} intent={intent} />;
  const selected = props.select && props.select in LANGUAGE_NAMES ? (props.select as Language) : "";
  return <LanguageButton current={props.isNotWebsiteLang ? selected : siteLanguage} {...trigger} />;
}
