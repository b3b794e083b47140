import { Button } from "@mantine/core";
import { Link, useRouterState } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { useDeferredMenu } from "../../../components/ui/deferred-menu.ts";
import { useSession } from "../../../lib/session.ts";
import { AccountButton } from "./account-button.tsx";
import { fullName } from "./initials.ts";

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
