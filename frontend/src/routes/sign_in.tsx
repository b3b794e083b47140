import { createFileRoute, redirect } from "@tanstack/react-router";
import { address } from "../app/address.ts";
import { SignInPanel } from "../features/sign-in/components/sign-in-panel.tsx";
import { homeFor, safeRedirect, sessionQueryOptions } from "../lib/session.ts";
import { sessionHinted } from "../lib/session-hint.ts";

// Without zod: the route tree is in the first page's code (app/address.ts).
const SignInSearch = address({
  /** The page to open after signing in (a guarded page sends its visitors here with it). */
  redirect: (value) => safeRedirect(typeof value === "string" ? value : undefined),
});

export const Route = createFileRoute("/sign_in")({
  validateSearch: SignInSearch,
  beforeLoad: async ({ context, search }) => {
    // Someone already signed in has nothing to do here.
    if (!sessionHinted()) return;
    const session = await context.queryClient.ensureQueryData(sessionQueryOptions()).catch(() => null);
    if (!session) return;
    const home = homeFor(session, search.redirect);
    throw "to" in home ? redirect({ to: home.to, search: home.search }) : redirect({ href: home.href });
  },
  component: SignInRoute,
});

function SignInRoute() {
  const { redirect: redirectTo } = Route.useSearch();
  return <SignInPanel redirectTo={redirectTo} />;
}
