import { createFileRoute } from "@tanstack/react-router";
import { PENDING } from "../components/page-skeleton.tsx";
import { AuditPage } from "../features/audit/components/audit-page.tsx";
import { requireSession, useSession } from "../lib/session.ts";

export const Route = createFileRoute("/audit")({
  // The session is checked in the loader rather than before it: the page's outline shows while it loads.
  loader: async ({ context, location }) => {
    await requireSession(context.queryClient, location);
  },
  ...PENDING,
  component: AuditRoute,
});

/**
 * Every signed-in user browses the history within their scope; the log's readers also verify it and replay
 * projections; only administrators switch a replay into service (auditors change nothing).
 */
function AuditRoute() {
  const session = useSession();
  const type = session?.account.user_type;
  return (
    <AuditPage
      canVerify={type === "Admin" || type === "Support" || type === "Auditor"}
      canSwitch={type === "Admin" || type === "Support"}
    />
  );
}
