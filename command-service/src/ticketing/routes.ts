import { CreateCardRequest, UpdateCardRequest } from "@skyward/contracts/cards";
import type { GateName } from "@skyward/contracts/ticketing";
import {
  AttachCardRequest,
  CreateChannelRequest,
  CredentialRequest,
  SourceChannelQuery,
  ToggleRequest,
  UpdateChannelRequest,
} from "@skyward/contracts/ticketing-commands";
import { requireUserType } from "@skyward/infra/http/auth";
import { InvalidInput, NotFound } from "@skyward/infra/http/errors";
import { parseInput } from "@skyward/infra/http/validate";
import { type Request, Router } from "express";
import { answer } from "../command-answer.ts";
import type { CommandDeps } from "../deps.ts";
import { type CardVault, SandboxCardVault } from "./card-vault.ts";
import { attachCard, detachCard } from "./commands/channel-cards.ts";
import { createChannel } from "./commands/create-channel.ts";
import { deleteChannel } from "./commands/delete-channel.ts";
import { registerCard } from "./commands/register-card.ts";
import { replaceCredentials } from "./commands/replace-credentials.ts";
import { toggleCompany } from "./commands/toggle-company.ts";
import { toggleGlobalGate, togglePartnerGate } from "./commands/toggle-gate.ts";
import { toggleSource } from "./commands/toggle-source.ts";
import { deleteCard, updateCard } from "./commands/update-card.ts";
import { updateChannel } from "./commands/update-channel.ts";
import { ChannelCredentialStore, credentialsKey } from "./credentials.ts";

/** The global gate each route switches (the spec's names; `agency_gate` is the consolidator's, over every partner). */
const GLOBAL_GATE_ROUTES: [string, GateName][] = [
  ["/ticketing/main_gate", "main"],
  ["/ticketing/agency_gate", "consolidator"],
  ["/ticketing/channel_gate", "channel"],
];

export interface TicketingRouteOptions {
  /** Where card numbers go; the sandbox vault by default. */
  vault?: CardVault;
}

/**
 * Gates, channels, channel credentials and payment cards (spec section 7, "Ticketing gates and channels"). Gates
 * and source channels are administrators'; an agency's channels are its supervisors' too (DESIGN.md section 5).
 * Each route checks the role, parses its input, runs its command (`./commands/`) and answers its result.
 */
export function ticketingRoutes(deps: CommandDeps, options: TicketingRouteOptions = {}): Router {
  const router = Router();
  const vault = options.vault ?? new SandboxCardVault();
  const key = credentialsKey(deps.config);
  if (!key)
    deps.logger.warn(
      "CREDENTIALS_KEY is not set: ticketing channel credentials cannot be stored in production",
    );
  const credentialStore = new ChannelCredentialStore(deps.pool, key);

  const administrator = (req: Request) => requireUserType(req, "Admin", "Support");
  const channelManager = (req: Request) => requireUserType(req, "Admin", "Support", "Supervisor");
  const idOf = (req: Request, name: string) => {
    const value = req.params[name];
    if (typeof value !== "string" || value.length === 0 || value.length > 100)
      throw new NotFound("No such resource", "not_found");
    return value;
  };

  // Global gates: main, consolidator, every channel.
  for (const [path, gate] of GLOBAL_GATE_ROUTES)
    router.patch(path, async (req, res) => {
      administrator(req);
      const { active } = parseInput(ToggleRequest, req.body);
      answer(res, await toggleGlobalGate(deps, req.context, gate, active));
    });

  // A partner's (agency's) and a company's gate live in their own streams.
  for (const kind of ["Agency", "Company"] as const)
    router.patch(`/ticketing/${kind.toLowerCase()}_gates/:id`, async (req, res) => {
      administrator(req);
      const id = idOf(req, "id");
      const { active } = parseInput(ToggleRequest, req.body);
      answer(res, await togglePartnerGate(deps, req.context, kind, id, active));
    });

  router.patch("/ticketing/source_channels/:channel", async (req, res) => {
    const p = administrator(req);
    const channelId = idOf(req, "channel");
    const { type } = parseInput(SourceChannelQuery, req.query, "query");
    const { active } = parseInput(ToggleRequest, req.body);
    answer(res, await toggleSource(deps, req.context, p, channelId, type, active));
  });

  router.post("/ticketing/agency_channels", async (req, res) => {
    administrator(req);
    const request = parseInput(CreateChannelRequest, req.body);
    answer(res, await createChannel(deps, req.context, request), 201);
  });

  router.delete("/ticketing/agency_channels/:id", async (req, res) => {
    const p = administrator(req);
    const channelId = idOf(req, "id");
    answer(res, await deleteChannel(deps, req.context, p, channelId));
  });

  router.patch("/ticketing/agency_channels/:id", async (req, res) => {
    const channelId = idOf(req, "id");
    const p = channelManager(req);
    const patch = parseInput(UpdateChannelRequest, req.body);
    answer(res, await updateChannel(deps, req.context, p, channelId, patch));
  });

  router.post("/ticketing/agency_channels/:id/credit_cards", async (req, res) => {
    const channelId = idOf(req, "id");
    const p = channelManager(req);
    const { credit_card_id } = parseInput(AttachCardRequest, req.body);
    answer(res, await attachCard(deps, req.context, p, channelId, credit_card_id), 201);
  });

  router.delete("/ticketing/agency_channels/:id/credit_cards/:card_id", async (req, res) => {
    const channelId = idOf(req, "id");
    const cardId = idOf(req, "card_id");
    const p = channelManager(req);
    answer(res, await detachCard(deps, req.context, p, channelId, cardId));
  });

  router.patch("/ticketing/company_channels/:id", async (req, res) => {
    // Who is asking comes before what they sent: an anonymous caller is told to sign in, not how to word the body.
    const p = channelManager(req);
    const raw = idOf(req, "id");
    const { active } = parseInput(ToggleRequest, req.body);
    // `{channel_id}_{company_id}` as listed, or the channel's id with the company named in the body.
    const [channelId, fromPath] = raw.includes("_")
      ? (raw.split("_", 2) as [string, string])
      : [raw, undefined];
    const companyId = fromPath ?? companyIdOf(req.body);
    answer(res, await toggleCompany(deps, req.context, p, channelId, companyId, active));
  });

  // Credentials: stored encrypted, checked with the supplier at once; the answer says how the check went.
  for (const method of ["post", "patch"] as const)
    router[method]("/ticketing/agency_channels/:id/credential", async (req, res) => {
      const p = administrator(req);
      const channelId = idOf(req, "id");
      const credentials = parseInput(CredentialRequest, req.body);
      const first = method === "post";
      const replaced = await replaceCredentials(
        deps,
        credentialStore,
        req.context,
        p,
        channelId,
        credentials,
        first,
      );
      answer(res, replaced, first ? 201 : 200);
    });

  // Payment cards: the number goes to the vault and nowhere else.
  router.post("/credit_cards", async (req, res) => {
    const p = channelManager(req);
    const request = parseInput(CreateCardRequest, req.body);
    answer(res, await registerCard(deps, vault, req.context, p, request), 201);
  });

  router.patch("/credit_cards/:id", async (req, res) => {
    const p = channelManager(req);
    const patch = parseInput(UpdateCardRequest, req.body);
    answer(res, await updateCard(deps, req.context, p, idOf(req, "id"), patch));
  });

  router.delete("/credit_cards/:id", async (req, res) => {
    const p = channelManager(req);
    answer(res, await deleteCard(deps, req.context, p, idOf(req, "id")));
  });

  return router;
}

function companyIdOf(body: unknown): string {
  const id = (body as { company_id?: unknown } | null)?.company_id;
  if (typeof id !== "string" || id.length === 0 || id.length > 100)
    throw new InvalidInput([{ pointer: "/company_id", detail: "is required with a channel id" }]);
  return id;
}
