import { FareCalendarRequest } from "@skyward/contracts/fare-calendar";
import { journeySearchSchema } from "@skyward/contracts/offers";
import {
  AirportsQuery,
  ApplyFiltersRequest,
  FilterKey,
  OfferDetailsQuery,
  SearchFilters,
} from "@skyward/contracts/search";
import { requirePrincipal } from "@skyward/infra/http/auth";
import { parseInput } from "@skyward/infra/http/validate";
import { type Request, Router } from "express";
import { z } from "zod";
import type { CommandDeps } from "../deps.ts";
import { priceOfferDetails } from "../pricing/apply-pricing.ts";
import { assertCanSell } from "../ticketing/channel.ts";
import { searchAirports } from "./airport-search.ts";
import { buildFareCalendar, loadFareCalendar, saveFareCalendar } from "./fare-calendar.ts";
import { applyFilters } from "./filters.ts";
import { guardedSearch } from "./search.ts";
import { companyFor, sellingContext, supplierCall } from "./selling-context.ts";

const SearchBody = z.object({ company_id: z.string().max(100).optional() }).passthrough();

/** Search and everything else that asks the supplier about offers (DESIGN.md: supplier calls are commands' side). */
export function offerRoutes(deps: CommandDeps): Router {
  const router = Router();

  /** The selling context of the search result a request names (the caller's own). */
  async function contextOfSearch(req: Request) {
    const principal = requirePrincipal(req);
    const { search_result_id } = parseInput(OfferDetailsQuery, req.query, "query");
    const search = await deps.searches.load(principal, search_result_id);
    return sellingContext(deps, principal, search.company_id, search.channel_id);
  }

  router.get("/airports", (req, res) => {
    requirePrincipal(req);
    const { q } = parseInput(AirportsQuery, req.query, "query");
    res.json({ data: searchAirports(q) });
  });

  router.post("/offers", async (req, res) => {
    const principal = requirePrincipal(req);
    const request = parseInput(journeySearchSchema(req.body), req.body);
    const { company_id } = parseInput(SearchBody, req.body);
    // A closed gate refuses the search, naming itself; one closed by another process a moment ago too (the page is
    // kept only if the gates are still as read).
    const companyId = companyFor(principal, company_id);
    const { json, brotli } = await guardedSearch(
      deps,
      principal,
      request,
      (options) => sellingContext(deps, principal, companyId, undefined, options),
      (ctx) => assertCanSell(ctx.gates, ctx.channel, req.context.source),
    );
    // The page as kept, already Brotli-encoded, to a browser that takes it (the compression middleware passes it).
    res.type("application/json; charset=utf-8").vary("Accept-Encoding");
    if (req.acceptsEncodings("br") === "br") res.set("Content-Encoding", "br").send(brotli);
    else res.send(json);
  });

  // The cheapest total per date around the asked ones (issue 23.2), decided and guarded like a search.
  router.post("/fare_calendar", async (req, res) => {
    const principal = requirePrincipal(req);
    const request = parseInput(FareCalendarRequest, req.body);
    const { company_id } = parseInput(SearchBody, req.body);
    const companyId = companyFor(principal, company_id);
    // Read fresh: a calendar is asked far less often than a search, and a gate closed elsewhere must refuse it.
    const ctx = await sellingContext(deps, principal, companyId, undefined, { fresh: true });
    assertCanSell(ctx.gates, ctx.channel, req.context.source);
    const calendar = await buildFareCalendar(deps, ctx, request);
    await saveFareCalendar(deps.pool, principal, ctx.companyId, request, calendar);
    res.json({ calendar });
  });

  router.get("/fare_calendar/:id", async (req, res) => {
    const principal = requirePrincipal(req);
    res.json({ calendar: await loadFareCalendar(deps.pool, principal, req.params.id as string) });
  });

  router.post("/search_results", async (req, res) => {
    const principal = requirePrincipal(req);
    const body = parseInput(ApplyFiltersRequest, req.body);
    const search = await deps.searches.load(principal, body.search_result_id);
    const filters = { ...search.filters, ...body.filters };
    await deps.searches.saveFilters(search, filters);
    res.json({ result: applyFilters(search.result, filters), filters });
  });

  router.delete("/search_results/:id", async (req, res) => {
    const principal = requirePrincipal(req);
    const { filter_key } = parseInput(z.object({ filter_key: FilterKey }), req.query, "query");
    const search = await deps.searches.load(principal, req.params.id as string);
    const { [filter_key]: _removed, ...rest } = search.filters;
    const filters = SearchFilters.parse(rest);
    await deps.searches.saveFilters(search, filters);
    res.json({ result: applyFilters(search.result, filters), filters });
  });

  router.get("/offers/:id/details", async (req, res) => {
    const ctx = await contextOfSearch(req);
    const details = await deps.supplier.offerDetails(
      { fare_id: req.params.id as string },
      supplierCall(deps.now(), ctx),
    );
    res.json({ data: priceOfferDetails(details, ctx.policy) });
  });

  router.get("/offers/:id/fare_rules", async (req, res) => {
    const ctx = await contextOfSearch(req);
    const rules = await deps.supplier.fareRules(
      { fare_id: req.params.id as string },
      supplierCall(deps.now(), ctx),
    );
    res.json({ data: rules });
  });

  return router;
}
