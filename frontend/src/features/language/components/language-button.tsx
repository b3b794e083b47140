import { Button, type ButtonProps } from "@mantine/core";
import { IconChevronDown, IconWorld } from "@tabler/icons-react";
import type { ComponentPropsWithRef } from "react";
import { useTranslation } from "react-i18next";
import type { DeferredMenuProps } from "../../../components/ui/deferred-menu.ts";
import type { Language } from "../../../lib/i18n.ts";
import { LANGUAGE_NAMES } from "../../../lib/language-names.ts";

/*
 * What the picker (first load) and its menu (loaded when reached for) share, apart from both, so that the menu does
 * not import the picker that loads it.
 */

export interface LanguagePickerProps extends DeferredMenuProps {
  /** The chosen language; '' follows the site language (or shows a prompt when isNotWebsiteLang). */
  select?: string;
  languages?: readonly Language[];
  /** Choose a language for something other than the interface: the site locale stays as it is. */
  isNotWebsiteLang?: boolean;
  onChange?: (language: Language) => void;
}

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
