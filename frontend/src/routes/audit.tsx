import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { address, oneOf, type Reader, text } from "../app/address.ts";
import { PENDING } from "../components/page-skeleton.tsx";
import { AuditPage } from "../features/audit/components/audit-page.tsx";
import { requireSession, useSession } from "../lib/session.ts";

const Text = text(200, { prepare: (value) => value.trim() });
/** An instant as the history and time travel take it; one that does not read as a moment is dropped. */
const Instant: Reader<string> = (value) =>
  typeof value === "string" && value.includes("T") && !Number.isNaN(Date.parse(value)) ? value : undefined;
/** Written "true" in the address (the router keeps plain text as text: app/search-params.ts). */
const Flag: Reader<boolean> = (value) =>
  value === true || value === "true" ? true : value === false || value === "false" ? false : undefined;

/** The tab, the history's filters, the stream and moments of time travel: a reload shows the same events. */
const AuditSearch = address({
  tab: oneOf(["history", "time_travel", "verify", "replay"] as const),
  shown: Flag,
  locator: Text,
  stream_id: Text,
  trace_id: Text,
  actor_id: Text,
  company_id: Text,
  from: Instant,
  to: Instant,
  kind: oneOf(["booking", "balance", "channel", "traveller"] as const),
  id: Text,
  at: Instant,
  compare: Instant,
});

export const Route = createFileRoute("/audit")({
  validateSearch: AuditSearch,
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
  const view = Route.useSearch();
  const navigate = useNavigate({ from: "/audit" });
  return (
    <AuditPage
      canVerify={type === "Admin" || type === "Support" || type === "Auditor"}
      canSwitch={type === "Admin" || type === "Support"}
      view={view}
      onView={(next) => void navigate({ search: next })}
    />
  );
}
