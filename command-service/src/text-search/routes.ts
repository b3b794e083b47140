import { TextSearchRequest } from "@skyward/contracts/text-search";
import { requirePrincipal } from "@skyward/infra/http/auth";
import { InvalidInput } from "@skyward/infra/http/errors";
import { parseInput } from "@skyward/infra/http/validate";
import { type LlmProvider, providerFromEnv } from "@skyward/infra/llm/provider";
import { Router } from "express";
import { addDays } from "./dates.ts";
import { EMBEDDED_TEXT_SEARCH, textSearch } from "./model.ts";

/**
 * POST /text_search: a line of text to a structured search and its chips. Anyone who can search may ask; it reads
 * no business data and changes nothing.
 */
export function textSearchRoutes(provider: LlmProvider = providerFromEnv(EMBEDDED_TEXT_SEARCH)): Router {
  const router = Router();
  router.post("/text_search", async (req, res) => {
    requirePrincipal(req);
    const body = parseInput(TextSearchRequest, req.body);
    const serverToday = new Date().toISOString().slice(0, 10);
    // The agent's own today may be a day either side of the server's (time zones), no further.
    if (body.today && (body.today < addDays(serverToday, -1) || body.today > addDays(serverToday, 1)))
      throw new InvalidInput([
        { pointer: "/today", detail: "must be within a day of today", location: "body" },
      ]);
    const answer = await textSearch(provider, body.text, {
      today: body.today ?? serverToday,
      ...(body.language ? { language: body.language } : {}),
    });
    res.json(answer);
  });
  return router;
}
