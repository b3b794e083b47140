import { Avatar, Button, Group, Text, UnstyledButton } from "@mantine/core";
import { IconChevronDown, IconUser } from "@tabler/icons-react";
import { Link, useRouterState } from "@tanstack/react-router";
import type { ComponentPropsWithRef } from "react";
import { useTranslation } from "react-i18next";
import { useDeferredMenu } from "../../../components/ui/deferred-menu.ts";
import { personalData } from "../../../lib/replay-privacy.ts";
import { useSession } from "../../../lib/session.ts";
import { fullName } from "./initials.ts";

/** The account menu's button: the same before and after its menu's code is in. */
export function AccountButton({ name, ...props }: ComponentPropsWithRef<"button"> & { name: string }) {
  const { t } = useTranslation("account");
  return (
    <UnstyledButton
      aria-label={t("menu.label", { name })}
      {...personalData}
      px={6}
      py={4}
      style={{ borderRadius: 6 }}
      {...props}
    >
      <Group gap={8} wrap="nowrap">
        {/* An icon, not initials: text in the button that is not in its name fails WCAG 2.5.3 (label in name). */}
        <Avatar size={28} radius="xl" color="blue" variant="filled" aria-hidden>
          <IconUser size={16} />
        </Avatar>
        <Text fz="sm" fw={500} visibleFrom="sm" maw={160} truncate="end">
          {name}
        </Text>
        <IconChevronDown size={14} />
      </Group>
    </UnstyledButton>
  );
}

const loadMenu = () => import("./account-menu.tsx");

/** The header's account corner: who is signed in, their account page and signing out; or the way to sign in. */
export function UserMenu() {
  const { t } = useTranslation("account");
  const session = useSession();
  const onSignInPage = useRouterState({ select: (state) => state.location.pathname === "/sign_in" });
  const { Menu, trigger, intent } = useDeferredMenu(loadMenu);

  if (!session) {
    if (onSignInPage) return null;
    return (
      <Button component={Link} to="/sign_in" variant="light" size="compact-sm">
        {t("menu.sign_in")}
      </Button>
    );
  }
  const name = fullName(session.account);
  // The menu (and the code of Mantine's Menu) loads when the user reaches for the button.
  if (Menu) return <Menu name={name} intent={intent} />;
  return <AccountButton name={name} {...trigger} />;
}
