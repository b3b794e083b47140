import { createFileRoute, useNavigate } from "@tanstack/react-router";
import * as z from "zod/mini";
import { PENDING } from "../components/page-skeleton.tsx";
import { AuditPage } from "../features/audit/components/audit-page.tsx";
import { requireSession, useSession } from "../lib/session.ts";

const Text = z.catch(z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))), undefined);
/** An instant as the history and time travel take it; one that does not read as a moment is dropped. */
const Instant = z.catch(
  z.optional(z.string().check(z.refine((value) => !Number.isNaN(Date.parse(value)) && value.includes("T")))),
  undefined,
);

/** The tab, the history's filters, the stream and moments of time travel: a reload shows the same events. */
const AuditSearch = z.object({
  tab: z.catch(z.optional(z.enum(["history", "time_travel", "verify", "replay"])), undefined),
  // Written "true" in the address (the router keeps plain text as text: app/search-params.ts).
  shown: z.catch(z.optional(z.union([z.boolean(), z.stringbool()])), undefined),
  locator: Text,
  stream_id: Text,
  trace_id: Text,
  actor_id: Text,
  company_id: Text,
  from: Instant,
  to: Instant,
  kind: z.catch(z.optional(z.enum(["booking", "balance", "channel"])), undefined),
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
