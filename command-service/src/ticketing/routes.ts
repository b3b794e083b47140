import { CardBrand, CreateCardRequest, cardBrand, UpdateCardRequest } from "@skyward/contracts/cards";
import type { EventMetadata } from "@skyward/contracts/metadata";
import { formatPosition } from "@skyward/contracts/position";
import type { GateName } from "@skyward/contracts/ticketing";
import {
  AttachCardRequest,
  CREDENTIAL_MESSAGES,
  CreateChannelRequest,
  CredentialRequest,
  SourceChannelQuery,
  ToggleRequest,
  UpdateChannelRequest,
} from "@skyward/contracts/ticketing-commands";
import { type CommandOutcome, runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { AppendResult, StoredEvent, StreamAppend } from "@skyward/infra/event-store/types";
import { isAdministrator, requireUserType } from "@skyward/infra/http/auth";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { Forbidden, InvalidInput, NotFound } from "@skyward/infra/http/errors";
import { parseInput } from "@skyward/infra/http/validate";
import { newId } from "@skyward/infra/ids";
import { type Request, Router } from "express";
import type { CommandDeps } from "../deps.ts";
import { type CardState, cardStream, decideCard, evolveCard, initialCard } from "./card.ts";
import { type CardVault, SandboxCardVault } from "./card-vault.ts";
import {
  type ChannelState,
  channelStream,
  decideChannel,
  evolveChannel,
  evolveGlobalGates,
  GATES_STREAM,
  initialChannel,
  openGlobalGates,
} from "./channel.ts";
import { ChannelCredentialStore, credentialsKey } from "./credentials.ts";
import { decideGlobalGate, decidePartnerGate, evolvePartnerGate, initialPartnerGate } from "./gates.ts";

const foldAgencyGate = evolvePartnerGate("Agency");
const foldCompanyGate = evolvePartnerGate("Company");

/** Only what the channel routes need of a company: the agency it belongs to, while it exists. */
interface CompanyOfAgency {
  agency_id: string | null;
  name: string | null;
}
const foldCompanyOfAgency = (state: CompanyOfAgency, event: StoredEvent): CompanyOfAgency => {
  if (event.type === "CompanyRegistered") {
    const data = event.data as { agency_id: string; name: string };
    return { agency_id: data.agency_id, name: data.name };
  }
  if (event.type === "CompanyDeleted") return { agency_id: null, name: null };
  return state;
};

const positionOf = (append: AppendResult) => (append.position ? formatPosition(append.position) : null);

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

  const run = <Result>(work: Parameters<typeof runCommand<Result>>[1]) =>
    runCommand<Result>(deps.store, work);
  const administrator = (req: Request) => requireUserType(req, "Admin", "Support");
  const channelManager = (req: Request) => requireUserType(req, "Admin", "Support", "Supervisor");
  const idOf = (req: Request, name: string) => {
    const value = req.params[name];
    if (typeof value !== "string" || value.length === 0 || value.length > 100)
      throw new NotFound("No such resource", "not_found");
    return value;
  };

  /** A live channel the caller may manage: a supervisor's own agency's, any for administrators; 404 otherwise. */
  const channelFor = (p: Principal, state: ChannelState) => {
    if (state.status !== "active" || (!isAdministrator(p) && state.agency_id !== p.agencyId))
      throw new NotFound("No such ticketing channel", "channel_not_found");
    return state;
  };
  /** A card the caller may use on a channel of `agencyId`: that agency's, or an administrators' card for them. */
  const cardFor = (p: Principal, state: CardState, agencyId?: string) => {
    const visible =
      state.status === "active" &&
      (isAdministrator(p) ? true : state.agency_id !== null && state.agency_id === p.agencyId);
    const fits =
      state.status === "active" &&
      (agencyId === undefined || state.agency_id === null || state.agency_id === agencyId);
    if (state.status !== "active" || !visible || !fits) throw new NotFound("No such card", "card_not_found");
    return state;
  };

  const channelAppend = (
    context: RequestContext,
    channel: { agency_id: string },
    channelId: string,
    version: number,
    events: readonly { type: string; data: unknown }[],
  ): StreamAppend => {
    const metadata: EventMetadata = metadataFor(context, { agency_id: channel.agency_id, company_id: null });
    return {
      streamId: channelStream(channelId),
      expected: version,
      events: events.map((e) => ({ ...e, metadata })),
    };
  };

  // Global gates: main, consolidator, every channel.
  for (const [path, gate] of GLOBAL_GATE_ROUTES)
    router.patch(path, async (req, res) => {
      administrator(req);
      const { active } = parseInput(ToggleRequest, req.body);
      const { result, append } = await run(async (cmd) => {
        const gates = await cmd.load(GATES_STREAM, evolveGlobalGates, openGlobalGates);
        const events = decideGlobalGate(gate, { type: "ToggleGate", active }, gates.state);
        const metadata = metadataFor(req.context, { agency_id: null, company_id: null });
        return {
          appends: [
            {
              streamId: GATES_STREAM,
              expected: gates.version,
              events: events.map((e) => ({ ...e, metadata })),
            },
          ],
          result: { gate, active },
        };
      });
      res.json({ data: result, position: positionOf(append) });
    });

  // A partner's (agency's) and a company's gate live in their own streams.
  for (const kind of ["Agency", "Company"] as const)
    router.patch(`/ticketing/${kind.toLowerCase()}_gates/:id`, async (req, res) => {
      administrator(req);
      const id = idOf(req, "id");
      const { active } = parseInput(ToggleRequest, req.body);
      const stream = `${kind.toLowerCase()}-${id}`;
      const { result, append } = await run(async (cmd) => {
        const loaded = await cmd.load(
          stream,
          kind === "Agency" ? foldAgencyGate : foldCompanyGate,
          initialPartnerGate,
        );
        const events = decidePartnerGate(kind, { type: "ToggleGate", active }, loaded.state);
        const metadata = metadataFor(
          req.context,
          kind === "Agency"
            ? { agency_id: id, company_id: null }
            : { agency_id: loaded.state.agency_id, company_id: id },
        );
        return {
          appends: [
            { streamId: stream, expected: loaded.version, events: events.map((e) => ({ ...e, metadata })) },
          ],
          result: { id, active },
        };
      });
      res.json({ data: result, position: positionOf(append) });
    });

  /** One command on one channel the caller may manage; `extra` adds other streams' appends to the same commit. */
  const onChannel = async <Result>(
    req: Request,
    channelId: string,
    decide: (
      channel: Extract<ChannelState, { status: "active" | "deleted" }>,
      p: Principal,
      cmd: Parameters<Parameters<typeof runCommand>[1]>[0],
    ) => Promise<{ events: ReturnType<typeof decideChannel>; extra?: StreamAppend[]; result: Result }>,
  ) => {
    const p = channelManager(req);
    return run<Result>(async (cmd): Promise<CommandOutcome<Result>> => {
      const loaded = await cmd.load(channelStream(channelId), evolveChannel, initialChannel);
      const channel = channelFor(p, loaded.state);
      const { events, extra = [], result } = await decide(channel, p, cmd);
      return {
        appends: [channelAppend(req.context, channel, channelId, loaded.version, events), ...extra],
        result,
      };
    });
  };

  router.patch("/ticketing/source_channels/:channel", async (req, res) => {
    administrator(req);
    const channelId = idOf(req, "channel");
    const { type } = parseInput(SourceChannelQuery, req.query, "query");
    const { active } = parseInput(ToggleRequest, req.body);
    const { append } = await onChannel(req, channelId, async (channel) => ({
      events: decideChannel({ type: "ToggleSource", source: type, active }, channel),
      result: null,
    }));
    res.json({ data: { id: channelId, type, active }, position: positionOf(append) });
  });

  router.post("/ticketing/agency_channels", async (req, res) => {
    administrator(req);
    const request = parseInput(CreateChannelRequest, req.body);
    const currency = await agencyCurrency(request.agency_id);
    const channelId = newId();
    const { append } = await run(async (cmd) => {
      const agency = await cmd.load(`agency-${request.agency_id}`, foldAgencyGate, initialPartnerGate);
      if (!agency.state.exists) throw new NotFound("No such agency", "agency_not_found");
      const channel = cmd.fresh(channelStream(channelId), evolveChannel, initialChannel);
      const events = decideChannel(
        {
          type: "CreateChannel",
          channel_id: channelId,
          agency_id: request.agency_id,
          title: request.name,
          currency,
        },
        channel.state,
      );
      return {
        appends: [
          { ...channelAppend(req.context, request, channelId, 0, events), expected: "no_stream" },
          // The agency must still exist when the channel is created: its stream is checked at the version read.
          { streamId: `agency-${request.agency_id}`, expected: agency.version, events: [] },
        ],
        result: null,
      };
    });
    res.status(201).json({
      data: {
        id: channelId,
        agency_id: request.agency_id,
        title: request.name,
        currency,
        active: false,
        active_by_admin: false,
        active_credential: false,
      },
      position: positionOf(append),
    });
  });

  /** The currency an agency's companies sell in: a channel sells in it too. */
  async function agencyCurrency(agencyId: string): Promise<string> {
    const { rows } = await deps.pool.query<{ currency: string }>(
      "SELECT currency FROM read.companies WHERE agency_id = $1 ORDER BY name LIMIT 1",
      [agencyId],
    );
    return rows[0]?.currency ?? "EUR";
  }

  router.delete("/ticketing/agency_channels/:id", async (req, res) => {
    administrator(req);
    const channelId = idOf(req, "id");
    const { append } = await onChannel(req, channelId, async (channel) => ({
      events: decideChannel({ type: "DeleteChannel" }, channel),
      result: null,
    }));
    res.json({ data: { id: channelId, deleted: true }, position: positionOf(append) });
  });

  router.patch("/ticketing/agency_channels/:id", async (req, res) => {
    const channelId = idOf(req, "id");
    const p = channelManager(req);
    const patch = parseInput(UpdateChannelRequest, req.body);
    if (patch.on_by_admin !== undefined && !isAdministrator(p))
      throw new Forbidden("Only administrators switch a channel on or off for the platform", "admin_only");
    const { result, append } = await onChannel(req, channelId, async (channel, p, cmd) => {
      const events: ReturnType<typeof decideChannel> = [];
      let state: ChannelState = channel;
      const apply = (decided: ReturnType<typeof decideChannel>) => {
        events.push(...decided);
        state = decided.reduce(evolveChannel, state);
      };
      if (patch.on_by_admin !== undefined)
        apply(decideChannel({ type: "ToggleChannel", by: "admin", active: patch.on_by_admin }, state));
      if (patch.on_by_supervisor !== undefined)
        apply(
          decideChannel({ type: "ToggleChannel", by: "supervisor", active: patch.on_by_supervisor }, state),
        );
      const extra: StreamAppend[] = [];
      let ticketingCard: { id: string; token: string } | null | undefined;
      if (patch.ticketing_credit_card_id === null) ticketingCard = null;
      else if (patch.ticketing_credit_card_id !== undefined) {
        const loaded = await cmd.load(cardStream(patch.ticketing_credit_card_id), evolveCard, initialCard);
        const card = cardFor(p, loaded.state, channel.agency_id);
        ticketingCard = { id: card.id, token: card.token };
        const attach = decideCard({ type: "AttachToChannel", channel_id: channelId }, card);
        extra.push(cardAppend(req.context, card, loaded.version, attach));
      }
      apply(
        decideChannel(
          {
            type: "UpdateChannel",
            form_of_payment: patch.form_of_payment,
            ticketing_card: ticketingCard,
            nego_code: patch.nego_code,
            resident_fares_code: patch.resident_fares_code,
          },
          state,
        ),
      );
      return { events, extra, result: state };
    });
    res.json({ data: channelView(result), position: positionOf(append) });
  });

  const cardAppend = (
    context: RequestContext,
    card: { id: string; agency_id: string | null },
    version: number,
    events: readonly { type: string; data: unknown }[],
  ): StreamAppend => {
    const metadata = metadataFor(context, { agency_id: card.agency_id, company_id: null });
    return {
      streamId: cardStream(card.id),
      expected: version,
      events: events.map((e) => ({ ...e, metadata })),
    };
  };

  router.post("/ticketing/agency_channels/:id/credit_cards", async (req, res) => {
    const channelId = idOf(req, "id");
    channelManager(req);
    const { credit_card_id } = parseInput(AttachCardRequest, req.body);
    const { append } = await onChannel(req, channelId, async (channel, p, cmd) => {
      const loaded = await cmd.load(cardStream(credit_card_id), evolveCard, initialCard);
      const card = cardFor(p, loaded.state, channel.agency_id);
      return {
        events: decideChannel({ type: "AttachCard", credit_card_id }, channel),
        extra: [
          cardAppend(
            req.context,
            card,
            loaded.version,
            decideCard({ type: "AttachToChannel", channel_id: channelId }, card),
          ),
        ],
        result: null,
      };
    });
    res.status(201).json({ data: { id: channelId, credit_card_id }, position: positionOf(append) });
  });

  router.delete("/ticketing/agency_channels/:id/credit_cards/:card_id", async (req, res) => {
    const channelId = idOf(req, "id");
    const cardId = idOf(req, "card_id");
    const { append } = await onChannel(req, channelId, async (channel, _p, cmd) => {
      const events = decideChannel({ type: "DetachCard", credit_card_id: cardId }, channel);
      const loaded = await cmd.load(cardStream(cardId), evolveCard, initialCard);
      const extra =
        loaded.state.status === "active"
          ? [
              cardAppend(
                req.context,
                loaded.state,
                loaded.version,
                decideCard({ type: "DetachFromChannel", channel_id: channelId }, loaded.state),
              ),
            ]
          : [];
      return { events, extra, result: null };
    });
    res.json({
      data: { id: channelId, credit_card_id: cardId, detached: true },
      position: positionOf(append),
    });
  });

  router.patch("/ticketing/company_channels/:id", async (req, res) => {
    // Who is asking comes before what they sent: an anonymous caller is told to sign in, not how to word the body.
    channelManager(req);
    const raw = idOf(req, "id");
    const { active } = parseInput(ToggleRequest, req.body);
    // `{channel_id}_{company_id}` as listed, or the channel's id with the company named in the body.
    const [channelId, fromPath] = raw.includes("_")
      ? (raw.split("_", 2) as [string, string])
      : [raw, undefined];
    const companyId = fromPath ?? companyIdOf(req.body);
    const { append } = await onChannel(req, channelId, async (channel, _p, cmd) => {
      const company = await cmd.load(`company-${companyId}`, foldCompanyOfAgency, {
        agency_id: null,
        name: null,
      });
      if (company.state.agency_id !== channel.agency_id)
        throw new NotFound("No such company", "company_not_found");
      return {
        events: decideChannel({ type: "ToggleCompany", company_id: companyId, active }, channel),
        result: null,
      };
    });
    res.json({
      data: { id: `${channelId}_${companyId}`, channel_id: channelId, company_id: companyId, active },
      position: positionOf(append),
    });
  });

  // Credentials: stored encrypted, checked with the supplier at once; the answer says how the check went.
  for (const method of ["post", "patch"] as const)
    router[method]("/ticketing/agency_channels/:id/credential", async (req, res) => {
      const p = administrator(req);
      const channelId = idOf(req, "id");
      const credentials = parseInput(CredentialRequest, req.body);
      const { state } = await deps.store.fold(channelStream(channelId), evolveChannel, initialChannel);
      const channel = channelFor(p, state);
      // Checked before anything is stored: no transaction is held open across the supplier's answer.
      const check = await deps.supplier.checkCredentials(credentials, { now: deps.now() });
      await credentialStore.save(channelId, credentials);
      const { append } = await onChannel(req, channelId, async (current) => ({
        events: decideChannel({ type: "ReplaceCredentials", active: check.active }, current),
        result: null,
      }));
      const messages = check.active
        ? [
            { type: "success", text: CREDENTIAL_MESSAGES.active },
            ...(method === "post" ? [{ type: "success", text: CREDENTIAL_MESSAGES.enable }] : []),
          ]
        : [{ type: "error", text: CREDENTIAL_MESSAGES.inactive }];
      const { rows: companies } = await deps.pool.query(
        "SELECT id, name FROM read.companies WHERE agency_id = $1 ORDER BY name",
        [channel.agency_id],
      );
      res.status(method === "post" ? 201 : 200).json({
        credential: { active: check.active, agency_id: channel.agency_id },
        companies,
        messages,
        position: positionOf(append),
      });
    });

  // Payment cards: the number goes to the vault and nowhere else.
  router.post("/credit_cards", async (req, res) => {
    const p = channelManager(req);
    const request = parseInput(CreateCardRequest, req.body);
    const agencyId = isAdministrator(p) ? (request.agency_id ?? null) : p.agencyId;
    if (!isAdministrator(p) && request.agency_id && request.agency_id !== p.agencyId)
      throw new NotFound("No such agency", "agency_not_found");
    const facts = {
      brand: CardBrand.parse(cardBrand(request.number)),
      last4: request.number.slice(-4),
      exp_month: request.exp_month,
      exp_year: request.exp_year,
      holder: request.holder,
    };
    // Expiry is refused before the number leaves for the vault.
    decideCard(
      { type: "RegisterCard", card_id: "check", agency_id: agencyId, facts, token: "check", now: deps.now() },
      initialCard,
    );
    const { token } = await vault.tokenize({ number: request.number, ...facts });
    const cardId = newId();
    const { append } = await run(async (cmd) => {
      if (agencyId) {
        const agency = await cmd.load(`agency-${agencyId}`, foldAgencyGate, initialPartnerGate);
        if (!agency.state.exists) throw new NotFound("No such agency", "agency_not_found");
      }
      const events = decideCard(
        { type: "RegisterCard", card_id: cardId, agency_id: agencyId, facts, token, now: deps.now() },
        initialCard,
      );
      return {
        appends: [
          {
            ...cardAppend(req.context, { id: cardId, agency_id: agencyId }, 0, events),
            expected: "no_stream",
          },
        ],
        result: null,
      };
    });
    res
      .status(201)
      .json({ data: { id: cardId, agency_id: agencyId, ...facts }, position: positionOf(append) });
  });

  /** One command on a card the caller may manage. */
  const onCard = async (
    req: Request,
    decide: (card: Extract<CardState, { status: "active" | "deleted" }>) => ReturnType<typeof decideCard>,
  ) => {
    const p = channelManager(req);
    const cardId = idOf(req, "id");
    return run(async (cmd) => {
      const loaded = await cmd.load(cardStream(cardId), evolveCard, initialCard);
      const card = cardFor(p, loaded.state);
      const events = decide(card);
      return {
        appends: [cardAppend(req.context, card, loaded.version, events)],
        result: events.reduce(evolveCard, card as CardState),
      };
    });
  };

  router.patch("/credit_cards/:id", async (req, res) => {
    channelManager(req);
    const patch = parseInput(UpdateCardRequest, req.body);
    const { result, append } = await onCard(req, (card) =>
      decideCard({ type: "UpdateCard", ...patch, now: deps.now() }, card),
    );
    if (result.status === "none") throw new NotFound("No such card", "card_not_found");
    const { token: _token, channel_ids, status: _status, ...view } = result;
    res.json({ data: { ...view, channel_ids }, position: positionOf(append) });
  });

  router.delete("/credit_cards/:id", async (req, res) => {
    const { append } = await onCard(req, (card) => decideCard({ type: "DeleteCard" }, card));
    res.json({ data: { id: req.params.id, deleted: true }, position: positionOf(append) });
  });

  return router;
}

function companyIdOf(body: unknown): string {
  const id = (body as { company_id?: unknown } | null)?.company_id;
  if (typeof id !== "string" || id.length === 0 || id.length > 100)
    throw new InvalidInput([{ pointer: "/company_id", detail: "is required with a channel id" }]);
  return id;
}

/** A channel as a command answers it: its settings, never a token or a credential. */
function channelView(state: ChannelState) {
  if (state.status === "none") return null;
  return {
    id: state.channel_id,
    agency_id: state.agency_id,
    title: state.title,
    active_by_admin: state.active_by_admin,
    active_by_supervisor: state.active_by_supervisor,
    active_credential: state.credential_active,
    form_of_payment: state.form_of_payment,
    ticketing_credit_card_id: state.ticketing_card?.id ?? null,
    credit_card_ids: state.card_ids,
    nego_code: state.nego_code,
    resident_fares_code: state.resident_fares_code,
    ...state.sources,
  };
}
