import { createFileRoute, redirect } from "@tanstack/react-router";
import { address } from "../app/address.ts";
import { PENDING } from "../components/page-skeleton.tsx";
import { OnboardingPanel } from "../features/onboarding/components/onboarding-panel.tsx";
import { requireSession, safeRedirect } from "../lib/session.ts";

const OnboardingSearch = address({
  redirect: (value) => safeRedirect(typeof value === "string" ? value : undefined),
});

export const Route = createFileRoute("/onboarding")({
  validateSearch: OnboardingSearch,
  beforeLoad: async ({ context, location, search }) => {
    const session = await requireSession(context.queryClient, location, { onboarded: false });
    if (session.onboarding === "done") throw redirect({ href: search.redirect ?? "/" });
    // The page works from the state it opened in; the session query moves on as onboarding completes.
    return { onboardingSession: { ...session, onboarding: session.onboarding } };
  },
  ...PENDING,
  component: OnboardingRoute,
});

function OnboardingRoute() {
  const { onboardingSession } = Route.useRouteContext();
  const { redirect: redirectTo } = Route.useSearch();
  return <OnboardingPanel session={onboardingSession} redirectTo={redirectTo} />;
}
