import { useSuspenseQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { AccountPage } from "../features/account/components/account-page.tsx";
import { requireSession, sessionQueryOptions } from "../lib/session.ts";

export const Route = createFileRoute("/account")({
  beforeLoad: async ({ context, location }) => {
    await requireSession(context.queryClient, location);
  },
  component: AccountRoute,
});

function AccountRoute() {
  const { data: session } = useSuspenseQuery(sessionQueryOptions());
  // Signing out clears the session a moment before the sign-in page opens.
  return session ? <AccountPage session={session} /> : null;
}
