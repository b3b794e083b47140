import { Button, Group } from "@mantine/core";
import { mayUseScreen, SCREENS, type Screen } from "@skyward/contracts/screens";
import {
  IconBuildingBank,
  IconChartBar,
  IconHistory,
  IconPlugConnected,
  IconReportMoney,
  IconSearch,
  IconSparkles,
  IconTicket,
} from "@tabler/icons-react";
import { Link, useRouterState } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { type Session, useSession } from "../lib/session.ts";

/** The working areas of a signed-in agent, in the header next to the logo. */
export function MainNav() {
  const session = useSession();
  // Signed out, nothing: and none of the screens' catalogues is asked for on the public pages.
  return session ? <AgentNav session={session} /> : null;
}

function AgentNav({ session }: { session: Session }) {
  const { t: tSearch } = useTranslation("search");
  const { t: tBookings } = useTranslation("bookings");
  const { t: tSales } = useTranslation("sales");
  const { t: tAdmin } = useTranslation("admin");
  const { t: tChannels } = useTranslation("channels");
  const { t: tAudit } = useTranslation("audit");
  const { t: tAssistant } = useTranslation("assistant");
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const entries: Record<Screen, { to: `/${Screen}`; label: string; icon: ReactNode }> = {
    search: { to: "/search", label: tSearch("nav"), icon: <IconSearch size={15} /> },
    bookings: { to: "/bookings", label: tBookings("nav"), icon: <IconTicket size={15} /> },
    sales: { to: "/sales", label: tSales("nav"), icon: <IconReportMoney size={15} /> },
    analytics: { to: "/analytics", label: tSales("analytics.nav"), icon: <IconChartBar size={15} /> },
    channels: { to: "/channels", label: tChannels("nav"), icon: <IconPlugConnected size={15} /> },
    admin: { to: "/admin", label: tAdmin("nav"), icon: <IconBuildingBank size={15} /> },
    assistant: { to: "/assistant", label: tAssistant("nav"), icon: <IconSparkles size={15} /> },
    audit: { to: "/audit", label: tAudit("nav"), icon: <IconHistory size={15} /> },
  };
  // Each role sees the screens it may use, and only those (contracts' SCREEN_ROLES).
  const items = SCREENS.filter((screen) => mayUseScreen(session.account.user_type, screen)).map(
    (screen) => entries[screen],
  );
  return (
    <Group component="nav" gap={4} wrap="nowrap" w="max-content">
      {items.map((item) => {
        const active = pathname === item.to || pathname.startsWith(`${item.to}/`);
        return (
          <Button
            key={item.to}
            component={Link}
            to={item.to}
            variant={active ? "light" : "subtle"}
            color={active ? "blue" : "gray"}
            c={active ? undefined : "var(--mantine-color-text)"}
            size="compact-md"
            fz="sm"
            fw={active ? 600 : 500}
            leftSection={item.icon}
            aria-current={active ? "page" : undefined}
          >
            {item.label}
          </Button>
        );
      })}
    </Group>
  );
}
