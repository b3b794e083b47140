import type { AccountDetailsResponse } from "@skyward/contracts/account";
import type { NotificationsResponse } from "@skyward/contracts/agent-notifications";
import type { BalancesResponse } from "@skyward/contracts/balances";
import type { Principal } from "@skyward/infra/http/context";
import { accountDetails } from "@skyward/query-service/account/routes";
import { notificationsOf } from "@skyward/query-service/agent-notifications/routes";
import { balancesOf } from "@skyward/query-service/balances/routes";
import type pg from "pg";

/** The element's id the page reads (frontend/src/lib/page-data.ts). */
export const PAGE_DATA_ID = "skyward-page-data";

/**
 * What the server writes into the page for the caller of this very request (issue 27: ≤ 10 requests per first load):
 * who is signed in (`GET /account/details`'s answer, or null for nobody) and the signed-in header's bell
 * (`GET /notifications`'s answer), and on the bookings page the balance beside its list (`GET /balances`'s data), so
 * the first load asks none of them. Read per request from the request's own session,
 * never cached: the page that carries it is sent `no-store`.
 */
export interface PageData {
  session: AccountDetailsResponse | null;
  notifications?: NotificationsResponse;
  balances?: BalancesResponse["data"];
}

/** The pages whose first screen shows the balances. */
const BALANCE_PAGE = /^\/bookings\/?$/;

export async function pageDataFor(
  pool: pg.Pool,
  principal: Principal | null,
  pathname: string,
): Promise<PageData | null> {
  if (!principal) return { session: null };
  const [session, notifications, balances] = await Promise.all([
    accountDetails(pool, principal.userId),
    notificationsOf(pool, principal.userId),
    BALANCE_PAGE.test(pathname) ? balancesOf(pool, principal) : undefined,
  ]);
  // An account the read model does not hold (yet): the page asks as it did before, and hears the route's answer.
  if (!session) return null;
  return balances ? { session, notifications, balances } : { session, notifications };
}

/**
 * JSON that stays inside its `<script type="application/json">` element whatever the strings hold: no `<` (so no
 * `</script>` or `<!--`), `>` or `&` as such, and the two line separators JavaScript once read as line ends escaped.
 * JSON.stringify already writes a lone surrogate as `\udXXX`, so the page stays well-formed UTF-8.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * The page with its data at the end of its head (an inert element: a JSON script runs nothing, so the page's
 * Content-Security-Policy needs no hash for it). A replacer function, not a replacement string: `$&` or `$'` in a
 * name stay text.
 */
export function withPageData(html: string, data: PageData | null): string {
  if (!data) return html;
  const element = `<script type="application/json" id="${PAGE_DATA_ID}">${scriptJson(data)}</script>`;
  return html.replace("</head>", () => `${element}</head>`);
}
