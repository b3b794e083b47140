import { createFileRoute } from "@tanstack/react-router";
import { SearchPage } from "../features/search/components/search-page.tsx";
import { requireSession } from "../lib/session.ts";

export const Route = createFileRoute("/search")({
  beforeLoad: async ({ context, location }) => {
    await requireSession(context.queryClient, location);
  },
  component: SearchPage,
});
