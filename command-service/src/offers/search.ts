import { randomUUID } from "node:crypto";
import type { SearchRequest, SearchResult } from "@skyward/contracts/offers";
import type { Principal } from "@skyward/infra/http/context";
import type { CommandDeps } from "../deps.ts";
import { priceSearchResult } from "../pricing/apply-pricing.ts";
import { type SellingContext, supplierCall } from "./selling-context.ts";

/** A priced result page and its JSON (UTF-8), serialized and encoded once for both the answer and the stored page. */
export interface PricedSearch {
  result: SearchResult;
  json: Buffer;
}

/** Asks the channel's supplier, prices the answer with the caller's markups and keeps it as a page to book from. */
export async function searchOffers(
  deps: CommandDeps,
  principal: Principal,
  ctx: SellingContext,
  request: SearchRequest,
): Promise<PricedSearch> {
  const supplierResult = await deps.supplier.search(request, supplierCall(deps.now(), ctx));
  const result = { ...priceSearchResult(supplierResult, ctx.policy), id: randomUUID() };
  const json = Buffer.from(JSON.stringify(result));
  await deps.searches.save(
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
  );
  return { result, json };
}
