import { Box, Button, Group } from "@mantine/core";
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
import { lazy, Suspense, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { type Session, useSession } from "../lib/session.ts";
import { look, MenuButton, type NavItem } from "./menu-button.tsx";

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
  const entries: Record<Screen, NavItem & { to: `/${Screen}` }> = {
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
  const fit = useFittingCount(items.length);
  const isActive = (to: string) => pathname === to || pathname.startsWith(`${to}/`);
  // Fewer than two screens beside the logo (a phone): one menu holds them all.
  const shown = fit.count >= items.length ? items : fit.count < 2 ? [] : items.slice(0, fit.count);
  const rest = items.slice(shown.length);
  const compact = shown.length === 0;
  return (
    // The screens that do not fit beside the logo (a phone, the longer languages at 1280 px) go into a menu: the
    // header is never scrolled or cut. On a phone the menu is a burger button the pickers cannot squeeze out.
    <Box
      component="nav"
      ref={fit.box}
      miw={compact ? 36 : 0}
      pos="relative"
      style={{
        flex: 1,
        overflow: "clip",
        overflowClipMargin: 4,
        display: "flex",
        gap: 4,
        alignItems: "center",
      }}
    >
      {/* An invisible copy of every entry, measured to know how many fit, in a box of no size: each as wide as when
          it is the current screen (bold). */}
      <Box pos="absolute" top={0} left={0} w={0} h={0} style={{ overflow: "hidden" }} aria-hidden>
        <Group ref={fit.ruler} gap={4} wrap="nowrap" w="max-content" style={{ visibility: "hidden" }}>
          {items.map((item) => (
            <Button key={item.to} component="span" {...look(true)} leftSection={item.icon}>
              {item.label}
            </Button>
          ))}
          <MenuButton compact={false} active={false} component="span" />
        </Group>
      </Box>
      {shown.map((item) => (
        <Button
          key={item.to}
          component={Link}
          to={item.to}
          {...look(isActive(item.to))}
          leftSection={item.icon}
          aria-current={isActive(item.to) ? "page" : undefined}
        >
          {item.label}
        </Button>
      ))}
      {rest.length > 0 ? (
        // Mantine's menu comes with the first overflow, not with every first page.
        <Suspense fallback={<MenuButton compact={compact} active={rest.some((item) => isActive(item.to))} />}>
          <NavMenu items={rest} compact={compact} isActive={isActive} />
        </Suspense>
      ) : null}
    </Box>
  );
}

const NavMenu = lazy(() => import("./nav-menu.tsx"));

/**
 * How many of the navigation's entries fit the width the header leaves it, measured on an invisible copy of them (the
 * last child of the ruler is the "More" button, which the entries that do not fit leave room for).
 */
function useFittingCount(total: number) {
  const box = useRef<HTMLDivElement>(null);
  const ruler = useRef<HTMLDivElement>(null);
  const [count, setCount] = useState(total);
  useLayoutEffect(() => {
    const outer = box.current;
    const copy = ruler.current;
    if (!outer || !copy) return;
    const measure = () => {
      const gap = 4;
      const widths = [...copy.children].map((child) => child.getBoundingClientRect().width);
      const more = widths.pop() ?? 0;
      const available = outer.clientWidth;
      const all = widths.reduce((sum, width) => sum + width, 0) + gap * Math.max(0, widths.length - 1);
      if (all <= available) return setCount(widths.length);
      let used = more;
      let fitting = 0;
      for (const width of widths) {
        if (used + gap + width > available) break;
        used += gap + width;
        fitting += 1;
      }
      setCount(fitting);
    };
    measure();
    if (typeof ResizeObserver === "undefined") return; // jsdom: every entry shown
    const observer = new ResizeObserver(measure);
    observer.observe(outer);
    observer.observe(copy);
    return () => observer.disconnect();
  }, []);
  return { box, ruler, count };
}
