import { Text } from "@mantine/core";
import { mayUseScreen } from "@skyward/contracts/screens";
import { useSuspenseQuery } from "@tanstack/react-query";
import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { address, count, isoDate, orElse, text } from "../app/address.ts";
import { PENDING } from "../components/page-skeleton.tsx";
import type { HistoryFilters } from "../features/channels/api/channels.ts";
import { ChannelsPage } from "../features/channels/components/channels-page.tsx";
import { requireSession, sessionQueryOptions } from "../lib/session.ts";

/** The audit's filters and page live in the URL, so a filtered view can be shared and reloaded. */
const ChannelsSearch = address({
  page: orElse(count(1, 100_000), 1),
  channel_id: text(100),
  date_from: isoDate,
  date_to: isoDate,
});

export const Route = createFileRoute("/channels")({
  validateSearch: ChannelsSearch,
  // The session is checked in the loader rather than before it: the page's outline shows while it loads.
  loader: async ({ context, location }) => {
    await requireSession(context.queryClient, location);
  },
  ...PENDING,
  component: ChannelsRoute,
});

function ChannelsRoute() {
  const { t } = useTranslation("channels");
  const { data: session } = useSuspenseQuery(sessionQueryOptions());
  const filters: HistoryFilters = Route.useSearch();
  const navigate = useNavigate({ from: "/channels" });
  if (!session) return null;
  const type = session.account.user_type;
  if (!mayUseScreen(type, "channels"))
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
