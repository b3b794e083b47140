import { ActionIcon, Button } from "@mantine/core";
import { IconDots, IconMenu2 } from "@tabler/icons-react";
import { forwardRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/*
 * The header's navigation parts that both the header (main-nav.tsx) and its lazily loaded menu (nav-menu.tsx) use, in
 * a module of their own so that neither imports the other back.
 */

/** How a navigation entry looks, the current screen's in bold. */
export const look = (active: boolean) =>
  ({
    variant: active ? "light" : "subtle",
    color: active ? "blue" : "gray",
    c: active ? undefined : "var(--mantine-color-text)",
    size: "compact-md",
    fz: "sm",
    fw: active ? 600 : 500,
    style: { flexShrink: 0 },
  }) as const;

type MenuButtonProps = { compact: boolean; active: boolean; component?: "span" };

/** What opens the screens that do not fit: a burger on a phone, "More" beside the screens that fit. */
export const MenuButton = forwardRef<HTMLButtonElement, MenuButtonProps>(function MenuButton(
  { compact, active, ...props },
  ref,
) {
  const { t } = useTranslation();
  return compact ? (
    <ActionIcon
      ref={ref}
      variant={active ? "light" : "subtle"}
      color={active ? "blue" : "gray"}
      size="lg"
      aria-label={t("header.menu")}
      style={{ flexShrink: 0 }}
      {...props}
    >
      <IconMenu2 size={20} />
    </ActionIcon>
  ) : (
    <Button ref={ref} {...look(active)} fw={500} leftSection={<IconDots size={15} />} {...props}>
      {t("header.more")}
    </Button>
  );
});

export interface NavItem {
  to: string;
  label: string;
  icon: ReactNode;
}
