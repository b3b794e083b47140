import { Menu } from "@mantine/core";
import { IconLogout, IconUser } from "@tabler/icons-react";
import { Link } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { DeferredMenuProps } from "../../../components/ui/deferred-menu.ts";
import { useSignOut } from "../api/sign-out.ts";
import { AccountButton } from "./account-button.tsx";

/** The signed-in account's menu: their account page and signing out (loaded by ./user-menu.tsx on demand). */
export default function AccountMenu({ name, intent }: DeferredMenuProps & { name: string }) {
  const { t } = useTranslation("account");
  const signOut = useSignOut();
  const [opened, setOpened] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // What the user did with the stand-in button while this code loaded.
  const [initialIntent] = useState(intent);
  useEffect(() => {
    if (initialIntent?.focus) button.current?.focus();
    if (initialIntent?.open) setOpened(true);
  }, [initialIntent]);

  // No focus placeholder in the menu: a role="presentation" element with a tabindex fails axe (aria-required-children).
  return (
    <Menu
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      shadow="md"
      width={240}
      withInitialFocusPlaceholder={false}
    >
      <Menu.Target>
        <AccountButton ref={button} name={name} />
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
