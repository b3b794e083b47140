import { useSuspenseQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { PENDING } from "../components/page-skeleton.tsx";
import { AccountPage } from "../features/account/components/account-page.tsx";
import { requireSession, sessionQueryOptions } from "../lib/session.ts";

export const Route = createFileRoute("/account")({
  // The session is checked in the loader rather than before it: the page's outline shows while it loads.
  loader: async ({ context, location }) => {
    await requireSession(context.queryClient, location);
  },
  ...PENDING,
  component: AccountRoute,
});

function AccountRoute() {
  const { data: session } = useSuspenseQuery(sessionQueryOptions());
  // Signing out clears the session a moment before the sign-in page opens.
  return session ? <AccountPage session={session} /> : null;
}
