import { randomUUID } from "node:crypto";
import type { JourneySearchRequest, SearchResult } from "@skyward/contracts/offers";
import type { Principal } from "@skyward/infra/http/context";
import { DomainError } from "@skyward/infra/http/errors";
import { utf8Json } from "@skyward/infra/http/utf8-json";
import { isRefusal } from "@skyward/infra/refusal";
import type { CommandDeps } from "../deps.ts";
import { priceSearchResult } from "../pricing/apply-pricing.ts";
import { type SellingContext, supplierCall } from "./selling-context.ts";

/**
 * A priced result page and the search's answer, `{"result": ...}`: its JSON (UTF-8) and the same Brotli-encoded,
 * serialized and encoded once for both the answer and the stored page.
 */
export interface PricedSearch {
  result: SearchResult;
  json: Buffer;
  brotli: Buffer;
}

/**
 * Asks the channel's supplier, prices the answer with the caller's markups and keeps it as a page to book from.
 * Null when a stream the context was folded from moved meanwhile (`ctx.read` guards the page): nothing was kept.
 */
export async function searchOffers(
  deps: CommandDeps,
  principal: Principal,
  ctx: SellingContext,
  request: JourneySearchRequest,
): Promise<PricedSearch | null> {
  const supplierResult = await deps.supplier.search(request, supplierCall(deps.now(), ctx));
  const result = { ...priceSearchResult(supplierResult, ctx.policy), id: randomUUID() };
  const json = utf8Json({ result });
  const brotli = await deps.searches.save(
    {
      id: result.id,
      user_id: principal.userId,
      company_id: ctx.companyId,
      channel_id: ctx.channelId,
      request,
      result,
      filters: {},
    },
    json,
    ctx.read,
  );
  return brotli ? { result, json, brotli } : null;
}

/** Attempts of a guarded search: a second one almost never happens, a third means the directory is churning. */
const GUARDED_ATTEMPTS = 3;

/**
 * A search decided on the selling context this process keeps (no read on the common path) and guarded by it: if a
 * stream the context came from moved meanwhile (a gate closed in another process a moment ago, whose notice is on
 * its way), the search is decided again on streams read now; so is a refusal by `check`.
 */
export async function guardedSearch(
  deps: CommandDeps,
  principal: Principal,
  request: JourneySearchRequest,
  contextOf: (options: { fresh: boolean }) => Promise<SellingContext>,
  check: (ctx: SellingContext) => void = () => {},
): Promise<PricedSearch & { ctx: SellingContext }> {
  for (let attempt = 1; attempt <= GUARDED_ATTEMPTS; attempt++) {
    const ctx = await contextOf({ fresh: attempt > 1 });
    try {
      check(ctx);
    } catch (error) {
      // A refusal is decided on streams read now, never only on what this process remembers.
      if (attempt === 1 && (error instanceof DomainError || isRefusal(error))) continue;
      throw error;
    }
    const priced = await searchOffers(deps, principal, ctx, request);
    if (priced) return { ...priced, ctx };
  }
  throw new DomainError(
    503,
    "directory_changing",
    "Settings are changing",
    "The agency's ticketing settings changed while searching. Search again in a moment.",
  );
}
