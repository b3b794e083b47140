import type { AccountDetailsResponse } from "@skyward/contracts/account";
import type { NotificationsResponse } from "@skyward/contracts/agent-notifications";
import type { BalancesResponse } from "@skyward/contracts/balances";
import { BookingList } from "@skyward/contracts/bookings";
import type { Principal } from "@skyward/infra/http/context";
import type { ReadModelWaiter } from "@skyward/infra/projections/read-your-writes";
import { accountDetails } from "@skyward/query-service/account/routes";
import { notificationsOf } from "@skyward/query-service/agent-notifications/routes";
import { balancesOf } from "@skyward/query-service/balances/routes";
import { bookingListOf } from "@skyward/query-service/bookings/routes";
import type pg from "pg";

/** The element's id the page reads (frontend/src/lib/page-data.ts). */
export const PAGE_DATA_ID = "skyward-page-data";

/**
 * What the server writes into the page for the caller of this very request (issue 27: ≤ 10 requests per first load):
 * who is signed in (`GET /account/details`'s answer, or null for nobody) and the signed-in header's bell
 * (`GET /notifications`'s answer), and on the bookings page its first list (`GET /bookings`' answer for the list and
 * page in its address) and the balance beside it (`GET /balances`' data), so the first load asks none of them. Read per request from the request's own session,
 * never cached: the page that carries it is sent `no-store`.
 */
export interface PageData {
  session: AccountDetailsResponse | null;
  notifications?: NotificationsResponse;
  balances?: BalancesResponse["data"];
  /** The bookings page's list as its start asks for it (no text search, no dates, by creation), and which one. */
  bookings?: {
    list: BookingList;
    page: number;
    per_page: number;
    answer: Awaited<ReturnType<typeof bookingListOf>>;
  };
}

/** The bookings page's first screen: the balances beside the list. */
const BOOKINGS_PAGE = /^\/bookings\/?$/;

/** Rows per page of the bookings page's lists (frontend/src/features/bookings/lists.ts, PER_PAGE). */
const BOOKINGS_PER_PAGE = 20;

/**
 * The list the bookings page opens on for its address (`?list=issued&page=2`; none: the first page of "new"), or null
 * for any other address (a text search, a booking opened, anything unexpected): the page then asks itself.
 */
function startingList(query: Record<string, unknown>): { list: BookingList; page: number } | null {
  const keys = Object.keys(query);
  if (keys.some((key) => key !== "list" && key !== "page")) return null;
  const list = BookingList.safeParse(query.list ?? "new");
  const page = query.page ?? "1";
  if (!list.success || typeof page !== "string" || !/^[1-9]\d{0,4}$/.test(page)) return null;
  return { list: list.data, page: Number(page) };
}

/** The read models the page's data comes from (as the routes it stands for wait on them). */
const PAGE_READ_MODELS = ["directory", "agent_notifications"] as const;
const BOOKINGS_PAGE_READ_MODELS = [...PAGE_READ_MODELS, "balances", "bookings"] as const;

/** How long a page waits for its read models to pass what was committed before it was asked for. */
const PAGE_FRESHNESS_MS = 1000;

/** The position of the newest event committed now: what the page's read models must have passed. */
async function committedHead(pool: pg.Pool): Promise<{ tx: bigint; gp: bigint } | null> {
  const { rows } = await pool.query<{ tx: string; gp: string }>(
    "SELECT transaction_id::text AS tx, global_position::text AS gp FROM es.events ORDER BY global_position DESC LIMIT 1",
  );
  const row = rows[0];
  return row ? { tx: BigInt(row.tx), gp: BigInt(row.gp) } : null;
}

export async function pageDataFor(
  pool: pg.Pool,
  readModels: ReadModelWaiter,
  principal: Principal | null,
  page: { path: string; query: Record<string, unknown> },
): Promise<PageData | null> {
  if (!principal) return { session: null };
  const bookingsPage = BOOKINGS_PAGE.test(page.path);
  const start = bookingsPage ? startingList(page.query) : null;
  // A page load carries no X-Min-Position (the last command's position lives in the page it replaces), so the page's
  // data waits until its read models have passed everything committed before the page was asked for: the balance
  // after a top-up, a booking just held, are in it. Not there in time: the page asks itself, as without page data.
  const head = await committedHead(pool);
  if (
    head &&
    !(await readModels.wait(
      bookingsPage ? BOOKINGS_PAGE_READ_MODELS : PAGE_READ_MODELS,
      head,
      PAGE_FRESHNESS_MS,
    ))
  )
    return null;
  const [session, notifications, balances, answer] = await Promise.all([
    accountDetails(pool, principal.userId),
    notificationsOf(pool, principal.userId),
    bookingsPage ? balancesOf(pool, principal) : undefined,
    start
      ? bookingListOf(pool, principal, {
          list: start.list,
          page: start.page,
          per_page: BOOKINGS_PER_PAGE,
          sort: "created",
        })
      : undefined,
  ]);
  // An account the read model does not hold (yet): the page asks as it did before, and hears the route's answer.
  if (!session) return null;
  return {
    session,
    notifications,
    ...(balances ? { balances } : {}),
    ...(start && answer ? { bookings: { ...start, per_page: BOOKINGS_PER_PAGE, answer } } : {}),
  };
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
