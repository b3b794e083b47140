import { Avatar, Button, Group, Menu, Text, UnstyledButton } from "@mantine/core";
import { IconChevronDown, IconLogout, IconUser } from "@tabler/icons-react";
import { Link, useRouterState } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { useSession } from "../../../lib/session.ts";
import { useSignOut } from "../api/sign-out.ts";
import { fullName } from "./initials.ts";

/** The header's account corner: who is signed in, their account page and signing out; or the way to sign in. */
export function UserMenu() {
  const { t } = useTranslation("account");
  const session = useSession();
  const signOut = useSignOut();
  const onSignInPage = useRouterState({ select: (state) => state.location.pathname === "/sign_in" });

  if (!session) {
    if (onSignInPage) return null;
    return (
      <Button component={Link} to="/sign_in" variant="light" size="compact-sm">
        {t("menu.sign_in")}
      </Button>
    );
  }

  const { account } = session;
  const name = fullName(account);
  // No focus placeholder in the menu: a role="presentation" element with a tabindex fails axe (aria-required-children).
  return (
    <Menu position="bottom-end" shadow="md" width={240} withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UnstyledButton aria-label={t("menu.label", { name })} px={6} py={4} style={{ borderRadius: 6 }}>
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
      </Menu.Target>
      <Menu.Dropdown>
        {/* No label block: a menu may hold only items (axe aria-required-children); the name is on the button. */}
        <Menu.Item component={Link} to="/account" leftSection={<IconUser size={16} />}>
          {t("menu.account")}
        </Menu.Item>
        <Menu.Item
          leftSection={<IconLogout size={16} />}
          onClick={() => signOut.mutate()}
          disabled={signOut.isPending}
        >
          {t("menu.sign_out")}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
