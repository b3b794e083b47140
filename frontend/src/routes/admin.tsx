import { Text } from "@mantine/core";
import { BalanceMovementKind } from "@skyward/contracts/balances";
import { mayUseScreen } from "@skyward/contracts/screens";
import { useSuspenseQuery } from "@tanstack/react-query";
import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { address, count, isoDate, orElse, text } from "../app/address.ts";
import { PENDING } from "../components/page-skeleton.tsx";
import type { BalanceFilters } from "../features/admin/api/admin.ts";
import { AdminPage } from "../features/admin/components/admin-page.tsx";
import { requireSession, sessionQueryOptions } from "../lib/session.ts";

/** The balance history's filters and page live in the URL, so a filtered view can be shared and reloaded. */
const AdminSearch = address({
  page: orElse(count(1, 100_000), 1),
  company_id: text(100),
  // Checked against the contracts' kinds by the page (below): their schema is classic zod, kept off the route tree.
  kind: text(40, { min: 0 }),
  date_from: isoDate,
  date_to: isoDate,
});

export const Route = createFileRoute("/admin")({
  validateSearch: AdminSearch,
  // The session is checked in the loader rather than before it: the page's outline shows while it loads.
  loader: async ({ context, location }) => {
    await requireSession(context.queryClient, location);
  },
  ...PENDING,
  component: AdminRoute,
});

function AdminRoute() {
  const { t } = useTranslation("admin");
  const { data: session } = useSuspenseQuery(sessionQueryOptions());
  const search = Route.useSearch();
  const kind = BalanceMovementKind.safeParse(search.kind);
  const filters: BalanceFilters = { ...search, kind: kind.success ? kind.data : undefined };
  const navigate = useNavigate({ from: "/admin" });
  if (!session) return null;
  const type = session.account.user_type;
  if (!mayUseScreen(type, "admin"))
    return (
      <Text p="md" c="dimmed">
        {t("unavailable")}
      </Text>
    );
  return (
    <AdminPage
      role={type === "Admin" ? "admin" : type === "Support" ? "support" : "supervisor"}
      filters={filters}
      onFilters={(next) => void navigate({ search: next })}
    />
  );
}
