import { Text } from "@mantine/core";
import { useSuspenseQuery } from "@tanstack/react-query";
import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import type { HistoryFilters } from "../features/channels/api/channels.ts";
import { ChannelsPage } from "../features/channels/components/channels-page.tsx";
import { requireSession, sessionQueryOptions } from "../lib/session.ts";

const IsoDate = z.iso.date();

/** The audit's filters and page live in the URL, so a filtered view can be shared and reloaded. */
const ChannelsSearch = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  channel_id: z.string().min(1).max(100).optional().catch(undefined),
  date_from: IsoDate.optional().catch(undefined),
  date_to: IsoDate.optional().catch(undefined),
});

export const Route = createFileRoute("/channels")({
  validateSearch: ChannelsSearch,
  beforeLoad: async ({ context, location }) => {
    await requireSession(context.queryClient, location);
  },
  component: ChannelsRoute,
});

function ChannelsRoute() {
  const { t } = useTranslation("channels");
  const { data: session } = useSuspenseQuery(sessionQueryOptions());
  const filters: HistoryFilters = Route.useSearch();
  const navigate = useNavigate({ from: "/channels" });
  if (!session) return null;
  const type = session.account.user_type;
  if (type !== "Admin" && type !== "Support" && type !== "Supervisor")
    return (
      <Text p="md" c="dimmed">
        {t("unavailable")}
      </Text>
    );
  return (
    <ChannelsPage
      administrator={type !== "Supervisor"}
      filters={filters}
      onFilters={(next) => void navigate({ search: next })}
    />
  );
}
