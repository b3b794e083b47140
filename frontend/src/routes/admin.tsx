import { Text } from "@mantine/core";
import { BalanceMovementKind } from "@skyward/contracts/balances";
import { useSuspenseQuery } from "@tanstack/react-query";
import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import type { BalanceFilters } from "../features/admin/api/admin.ts";
import { AdminPage } from "../features/admin/components/admin-page.tsx";
import { requireSession, sessionQueryOptions } from "../lib/session.ts";

const IsoDate = z.iso.date();

/** The balance history's filters and page live in the URL, so a filtered view can be shared and reloaded. */
const AdminSearch = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  company_id: z.string().min(1).max(100).optional().catch(undefined),
  kind: BalanceMovementKind.optional().catch(undefined),
  date_from: IsoDate.optional().catch(undefined),
  date_to: IsoDate.optional().catch(undefined),
});

export const Route = createFileRoute("/admin")({
  validateSearch: AdminSearch,
  beforeLoad: async ({ context, location }) => {
    await requireSession(context.queryClient, location);
  },
  component: AdminRoute,
});

function AdminRoute() {
  const { t } = useTranslation("admin");
  const { data: session } = useSuspenseQuery(sessionQueryOptions());
  const filters: BalanceFilters = Route.useSearch();
  const navigate = useNavigate({ from: "/admin" });
  if (!session) return null;
  const type = session.account.user_type;
  if (type === "Agent")
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
