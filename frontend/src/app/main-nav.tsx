import { Button, Group } from "@mantine/core";
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
  const items: {
    to: "/search" | "/bookings" | "/channels" | "/admin" | "/sales" | "/analytics" | "/audit" | "/assistant";
    label: string;
    icon: ReactNode;
  }[] = [
    { to: "/search", label: tSearch("nav"), icon: <IconSearch size={15} /> },
    { to: "/bookings", label: tBookings("nav"), icon: <IconTicket size={15} /> },
    { to: "/sales", label: tSales("nav"), icon: <IconReportMoney size={15} /> },
    { to: "/analytics", label: tSales("analytics.nav"), icon: <IconChartBar size={15} /> },
  ];
  // Channels and gates are managed by supervisors (their agency's) and administrators.
  if (["Supervisor", "Admin", "Support"].includes(session.account.user_type))
    items.push({ to: "/channels", label: tChannels("nav"), icon: <IconPlugConnected size={15} /> });
  // Partners, companies and balances: supervisors (their own partner's) and administrators.
  if (["Supervisor", "Admin", "Support"].includes(session.account.user_type))
    items.push({ to: "/admin", label: tAdmin("nav"), icon: <IconBuildingBank size={15} /> });
  // The AI admin panel: whoever administers (issue 13).
  if (["Supervisor", "Admin", "Support"].includes(session.account.user_type))
    items.push({ to: "/assistant", label: tAssistant("nav"), icon: <IconSparkles size={15} /> });
  // The event history: every user within their scope (issue 14).
  items.push({ to: "/audit", label: tAudit("nav"), icon: <IconHistory size={15} /> });
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
