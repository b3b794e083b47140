import { Text } from "@mantine/core";
import { mayUseScreen } from "@skyward/contracts/screens";
import { useSuspenseQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { PENDING } from "../components/page-skeleton.tsx";
import { AssistantPage } from "../features/assistant/components/assistant-page.tsx";
import { requireSession, sessionQueryOptions } from "../lib/session.ts";

export const Route = createFileRoute("/assistant")({
  // The session is checked in the loader rather than before it: the page's outline shows while it loads.
  loader: async ({ context, location }) => {
    await requireSession(context.queryClient, location);
  },
  ...PENDING,
  component: AssistantRoute,
});

/** The AI admin panel: administrators and supervisors only (agents have no administration to ask for). */
function AssistantRoute() {
  const { t } = useTranslation("assistant");
  const { data: session } = useSuspenseQuery(sessionQueryOptions());
  if (!session) return null;
  if (!mayUseScreen(session.account.user_type, "assistant"))
    return (
      <Text p="md" c="dimmed">
        {t("unavailable")}
      </Text>
    );
  return <AssistantPage />;
}
