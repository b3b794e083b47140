import { useDeferredMenu } from "../../../components/ui/deferred-menu.ts";
import { type Language, useSiteLanguage } from "../../../lib/i18n.ts";
import { LANGUAGE_NAMES } from "../../../lib/language-names.ts";
import { LanguageButton, type LanguagePickerProps } from "./language-button.tsx";

export type { LanguagePickerProps };

const loadMenu = () => import("./language-menu.tsx");

/** The language picker (seed spec, section 3); its menu and state machine load when the user reaches for it. */
export function LanguagePicker(props: LanguagePickerProps) {
  const siteLanguage = useSiteLanguage();
  const { Menu, trigger, intent } = useDeferredMenu(loadMenu);
  if (Menu) return <Menu {...props} intent={intent} />;
  const selected = props.select && props.select in LANGUAGE_NAMES ? (props.select as Language) : "";
  return <LanguageButton current={props.isNotWebsiteLang ? selected : siteLanguage} {...trigger} />;
}
