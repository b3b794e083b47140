import type { AccountDetailsResponse } from "@skyward/contracts/account";
import { accountDetailsOf } from "@skyward/contracts/session-check";
import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import { redirect } from "@tanstack/react-router";
import { analyticsSession } from "./analytics.ts";
import { ApiError, api } from "./api-client.ts";
import { sessionHinted, setSessionHint } from "./session-hint.ts";

/**
 * Who is signed in in this browser. The session cookie is HttpOnly, so the page learns it from
 * `GET /account/details` (401: nobody). A hint in local storage says a session may exist, so public pages ask
 * only then and an anonymous visitor's page loads without a refused request.
 */

export type Session = AccountDetailsResponse;

export const rememberSession = () => setSessionHint(true);
export const forgetSession = () => setSessionHint(false);

export const SESSION_QUERY_KEY = ["session"] as const;

/** The caller's account, or null when nobody is signed in. */
export async function fetchSession(): Promise<Session | null> {
  try {
    const { data } = await api.get<unknown>("/account/details");
    rememberSession();
    // Checked without zod (contracts/session-check.ts): zod stays out of every signed-in page's first load.
    const session = accountDetailsOf(data);
    analyticsSession(session.account);
    return session;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) throw error;
    forgetSession();
    return null;
  }
}

/**
 * The session the server wrote into the page (scripts/src/page-data.ts; null: nobody is signed in) taken as
 * `GET /account/details`'s answer, checked the same way: the first load asks no separate request for it. Throws on
 * a session of an unexpected shape (the caller then asks the server).
 */
export function sessionFromPage(queryClient: QueryClient, written: unknown): void {
  if (written === null) {
    forgetSession();
    queryClient.setQueryData(SESSION_QUERY_KEY, null);
    return;
  }
  const session = accountDetailsOf(written);
  rememberSession();
  analyticsSession(session.account);
  queryClient.setQueryData(SESSION_QUERY_KEY, session);
}

export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: SESSION_QUERY_KEY,
    queryFn: fetchSession,
    // Guarded routes show their own error page; the header stays quiet.
    meta: { notifyErrors: false },
  });

/** The signed-in account for the header and public pages; null when nobody is (or may be) signed in. */
export function useSession(): Session | null {
  const { data } = useQuery({ ...sessionQueryOptions(), enabled: sessionHinted() });
  return data ?? null;
}

/** Where to go back to after signing in: only a path of this site, never the sign-in page itself. */
export function safeRedirect(target: string | undefined): string | undefined {
  if (!target?.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return undefined;
  if (target === "/sign_in" || target.startsWith("/sign_in?") || target.startsWith("/onboarding"))
    return undefined;
  return target;
}

export type Home = { to: "/onboarding"; search: { redirect?: string } } | { href: string };

/** Where a signed-in account belongs: onboarding until it is done, then the page asked for (or the start page). */
export function homeFor(session: Pick<Session, "onboarding">, redirectTo?: string): Home {
  const target = safeRedirect(redirectTo);
  if (session.onboarding !== "done") return { to: "/onboarding", search: target ? { redirect: target } : {} };
  return { href: target ?? "/" };
}

/**
 * For a route's `beforeLoad`: anonymous visitors go to /sign_in (and come back after), accounts still in
 * onboarding go to /onboarding first.
 */
export async function requireSession(
  queryClient: QueryClient,
  location: { href: string },
  options: { onboarded?: boolean } = {},
): Promise<Session> {
  const session = await queryClient.ensureQueryData(sessionQueryOptions());
  const back = safeRedirect(location.href);
  if (!session) throw redirect({ to: "/sign_in", search: back ? { redirect: back } : {} });
  if ((options.onboarded ?? true) && session.onboarding !== "done")
    throw redirect({ to: "/onboarding", search: back ? { redirect: back } : {} });
  return session;
}

/** After signing in or out: nothing cached for the previous caller may show, and the header learns who it is. */
export async function startFreshSession(queryClient: QueryClient): Promise<Session | null> {
  dropEverythingButSession(queryClient);
  return queryClient.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 }).catch(() => null);
}

export function endSession(queryClient: QueryClient): void {
  forgetSession();
  dropEverythingButSession(queryClient);
  queryClient.setQueryData(SESSION_QUERY_KEY, null);
}

// The session query itself stays: the header observes it and hears the new value.
function dropEverythingButSession(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY_KEY[0] });
}
