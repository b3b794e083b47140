import {
  AgencyFlagRequest,
  CompanyMarkupsRequest,
  CreateAgencyRequest,
  CreateCompanyRequest,
  InviteUserRequest,
  JoinAgencyDecision,
  JoinAgencyRequestBody,
  SellingCompanyRequest,
  SharedBookingsRequest,
  TransactionFeeRequest,
  UpdateAgencyRequest,
  UpdateSupervisorRequest,
  unwrapBody,
} from "@skyward/contracts/administration";
import type { AgencyFlag, UserRegistered } from "@skyward/contracts/directory";
import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { StreamAppend } from "@skyward/infra/event-store/types";
import { forgetSession, isAdministrator, requirePrincipal, requireUserType } from "@skyward/infra/http/auth";
import type { Principal } from "@skyward/infra/http/context";
import { IllegalState, NotFound } from "@skyward/infra/http/errors";
import { parseInput } from "@skyward/infra/http/validate";
import { newId } from "@skyward/infra/ids";
import { type Request, Router } from "express";
import type pg from "pg";
import { decide as decideBalance } from "../balances/balance.ts";
import type { CommandDeps } from "../deps.ts";
import {
  chosenFirst,
  emailStream,
  evolveEmailClaim,
  evolveUser,
  noUser,
  registerUserAppends,
  userStream,
} from "../identity/user.ts";
import { channelStream, copyChannel, evolveChannel, initialChannel } from "../ticketing/channel.ts";
import {
  appendTo,
  assertAgencyScope,
  assertCompanyNameFree,
  assertPartnerNameFree,
  companyOf,
  joinAgencyOf,
  loadBalance,
  openBookings,
  partnerOf,
  personOf,
  positionOf,
} from "./administration.ts";
import { activeAgency, agencyStream, decideAgency, evolveAgency, noAgency, noFlags } from "./agency.ts";
import { activeCompany, companyStream, decideCompany, evolveCompany, noCompany } from "./company.ts";
import { sendInvitation } from "./invitation.ts";
import {
  decideJoinRequest,
  evolve as evolveJoin,
  evolveJoinRequest,
  type JoinRequestState,
  joinRequestId,
  joinRequestStream,
  noJoinRequest,
} from "./join-request.ts";

const ADMINS = ["Admin", "Support"] as const;
const MANAGERS = ["Admin", "Support", "Supervisor"] as const;
const FLAGS: AgencyFlag[] = [
  "production_api_on",
  "corporate_number_on",
  "ghost_segments_remarks_on",
  "auto_cancel_held_on",
];

/** A path id: anything a client sends is looked up as a parameter, so only its length is bounded here. */
const idParam = (req: Request, name: string): string => {
  const value = req.params[name];
  if (typeof value !== "string" || value.length === 0 || value.length > 100)
    throw new NotFound("The requested resource was not found");
  return value;
};

/** Ends every session of a user switched off or removed, in this process and (by notice) in the others. */
async function endSessionsOf(pool: pg.Pool, userId: string): Promise<void> {
  const { rows } = await pool.query<{ id_hash: string }>(
    "DELETE FROM app.sessions WHERE user_id = $1 RETURNING id_hash",
    [userId],
  );
  for (const row of rows) forgetSession(row.id_hash);
}

/**
 * Partners, companies, people and connection requests (seed-spec section 7, "Partners, companies, supervisors"):
 * each a command on its stream, scoped to the caller (DESIGN.md section 5; outside the scope answers 404).
 */
export function directoryRoutes(deps: CommandDeps): Router {
  const router = Router();
  const { pool, store } = deps;

  /** Runs a command on one partner stream the caller may manage; answers the partner after it. */
  const onAgency = async (
    p: Principal,
    req: Request,
    agencyId: string,
    build: (agency: ReturnType<typeof activeAgency>) => Parameters<typeof decideAgency>[0],
  ) => {
    assertAgencyScope(p, agencyId);
    const { result, append } = await runCommand(store, async (ctx) => {
      const loaded = await ctx.load(agencyStream(agencyId), evolveAgency, noAgency);
      const agency = activeAgency(loaded.state);
      const events = decideAgency(build(agency), agency);
      const state = events.reduce((s, e) => evolveAgency(s, asStored(e)), loaded.state);
      const metadata = metadataFor(req.context, { agency_id: agencyId, company_id: null });
      return { appends: [appendTo(agencyStream(agencyId), loaded.version, events, metadata)], result: state };
    });
    return { partner: await partnerOf(pool, activeAgency(result)), position: positionOf(append) };
  };

  router.post("/agencies", async (req, res) => {
    const p = requireUserType(req, ...ADMINS);
    const body = parseInput(CreateAgencyRequest, unwrapBody(req.body, "agency", "partner"));
    await assertPartnerNameFree(pool, body.name);
    const agencyId = newId();
    const { result, append } = await runCommand(store, async (ctx) => {
      const fresh = ctx.fresh(agencyStream(agencyId), evolveAgency, noAgency);
      const events = decideAgency(
        {
          type: "RegisterAgency",
          agency_id: agencyId,
          name: body.name,
          markups: body.markups ?? [],
          transaction_fee: body.transaction_fee ?? null,
          flags: {
            production_api_on: body.production_api_on,
            corporate_number_on: body.corporate_number_on,
            ghost_segments_remarks_on: body.ghost_segments_remarks_on,
          },
          time_zone: body.time_zone,
        },
        fresh.state,
      );
      const metadata = metadataFor(req.context, { agency_id: agencyId, company_id: null });
      return {
        appends: [appendTo(agencyStream(agencyId), "no_stream", events, metadata)],
        result: events.reduce((s, e) => evolveAgency(s, asStored(e)), fresh.state),
      };
    });
    void p;
    res
      .status(201)
      .json({ partner: await partnerOf(pool, activeAgency(result)), position: positionOf(append) });
  });

  router.patch("/agencies/:id", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const agencyId = idParam(req, "id");
    assertAgencyScope(p, agencyId);
    const body = parseInput(UpdateAgencyRequest, unwrapBody(req.body, "agency", "partner"));
    if (body.name !== undefined && !isAdministrator(p))
      throw new IllegalState("Only administrators rename a partner", "rename_not_allowed");
    if (body.name !== undefined) await assertPartnerNameFree(pool, body.name, agencyId);
    res.json(await onAgency(p, req, agencyId, () => ({ type: "UpdateAgency", ...body })));
  });

  for (const flag of FLAGS)
    router.patch(`/agencies/:id/${flag}`, async (req, res) => {
      const p = requireUserType(req, ...ADMINS);
      const agencyId = idParam(req, "id");
      const body = parseInput(AgencyFlagRequest, unwrapBody(req.body ?? {}, "agency", "partner"));
      const on = body.active ?? body.on ?? body.value ?? body[flag];
      res.json(await onAgency(p, req, agencyId, () => ({ type: "SetAgencyFlag", flag, on })));
    });

  router.put("/agency_transaction_fees/:id", async (req, res) => {
    const p = requireUserType(req, ...ADMINS);
    const agencyId = idParam(req, "id");
    assertAgencyScope(p, agencyId);
    const body = parseInput(TransactionFeeRequest, unwrapBody(req.body, "agency_transaction_fee"));
    const answer = await onAgency(p, req, agencyId, () => ({
      type: "SetAgencyTransactionFee",
      transaction_fee: body.transaction_fee,
    }));
    res.json({ ...answer, agency_transaction_fee: answer.partner.agency_transaction_fees[0] });
  });

  router.delete("/agencies/:id", async (req, res) => {
    const p = requireUserType(req, ...ADMINS);
    const agencyId = idParam(req, "id");
    const open = await openBookings(pool, { agency_id: agencyId });
    const { append } = await runCommand(store, async (ctx) => {
      const loaded = await ctx.load(agencyStream(agencyId), evolveAgency, noAgency);
      activeAgency(loaded.state);
      const metadata = metadataFor(req.context, { agency_id: agencyId, company_id: null });
      // Every company of the partner goes with it: each balance is read here and closed in the same append, so
      // a top-up or a charge racing the deletion either lands first (and refuses it) or is refused.
      const { rows } = await pool.query<{ id: string }>(
        "SELECT id FROM read.companies WHERE agency_id = $1 AND NOT deleted",
        [agencyId],
      );
      const companies = await Promise.all(
        rows.map(async ({ id }) => ({
          id,
          company: await ctx.load(companyStream(id), evolveCompany, noCompany),
          balance: await loadBalance(ctx, id),
        })),
      );
      const live = companies.filter((c) => c.company.state.status === "active");
      const events = decideAgency(
        {
          type: "DeleteAgency",
          companies_with_money: live
            .filter((c) => (c.balance.state.amount?.amount ?? 0) !== 0)
            .map((c) => c.id),
          open_bookings: open,
        },
        loaded.state,
      );
      const appends = [appendTo(agencyStream(agencyId), loaded.version, events, metadata)];
      for (const c of live) {
        const scoped = { ...metadata, scope: { agency_id: agencyId, company_id: c.id } };
        appends.push(
          appendTo(
            companyStream(c.id),
            c.company.version,
            decideCompany(
              { type: "DeleteCompany", open_bookings: 0, balance: c.balance.state.amount },
              c.company.state,
            ),
            scoped,
          ),
          appendTo(
            `balance-${c.id}`,
            c.balance.version,
            decideBalance({ type: "CloseBalance", company_id: c.id }, c.balance.state),
            scoped,
          ),
        );
      }
      return { appends, result: null };
    });
    void p;
    res.json({ data: null, position: positionOf(append) });
  });

  router.post("/agencies/:id/duplicate", async (req, res) => {
    requireUserType(req, ...ADMINS);
    const sourceId = idParam(req, "id");
    const body = parseInput(UpdateAgencyRequest, unwrapBody(req.body ?? {}, "agency", "partner"));
    const sourceName = (
      await pool.query<{ name: string }>("SELECT name FROM read.agencies WHERE id = $1", [sourceId])
    ).rows[0]?.name;
    const name = body.name ?? (sourceName === undefined ? undefined : `${sourceName} (copy)`.slice(0, 200));
    if (name !== undefined) await assertPartnerNameFree(pool, name);
    const agencyId = newId();
    const { result, append } = await runCommand(store, async (ctx) => {
      // The source is only read: a copy takes its configuration (name, pricing, switches), never people or money.
      const source = activeAgency((await ctx.load(agencyStream(sourceId), evolveAgency, noAgency)).state);
      const fresh = ctx.fresh(agencyStream(agencyId), evolveAgency, noAgency);
      const events = decideAgency(
        {
          type: "RegisterAgency",
          agency_id: agencyId,
          duplicated_from: sourceId,
          name: body.name ?? `${source.name} (copy)`.slice(0, 200),
          markups: body.markups ?? source.markups,
          transaction_fee: source.transaction_fee,
          flags: { ...noFlags, ...source.flags },
          time_zone: body.time_zone ?? source.time_zone,
        },
        fresh.state,
      );
      const metadata = metadataFor(req.context, { agency_id: agencyId, company_id: null });
      // Its channels' settings too, each a new channel of the copy (see copyChannel for what stays behind).
      const { rows: channels } = await pool.query<{ id: string }>(
        "SELECT id FROM read.channels WHERE agency_id = $1 AND NOT deleted ORDER BY created_at",
        [sourceId],
      );
      const copies: StreamAppend[] = [];
      for (const { id } of channels) {
        const channel = await ctx.load(channelStream(id), evolveChannel, initialChannel);
        if (channel.state.status !== "active") continue;
        const channelId = newId();
        const copy = copyChannel(channel.state, { channel_id: channelId, agency_id: agencyId });
        copies.push(appendTo(channelStream(channelId), "no_stream", copy, metadata));
      }
      return {
        appends: [appendTo(agencyStream(agencyId), "no_stream", events, metadata), ...copies],
        result: events.reduce((s, e) => evolveAgency(s, asStored(e)), fresh.state),
      };
    });
    res
      .status(201)
      .json({ partner: await partnerOf(pool, activeAgency(result)), position: positionOf(append) });
  });

  /** Runs a command on one company the caller may manage; answers the company after it. */
  const onCompany = async (
    p: Principal,
    req: Request,
    companyId: string,
    build: (company: ReturnType<typeof activeCompany>) => Parameters<typeof decideCompany>[0],
  ) => {
    const { result, append } = await runCommand(store, async (ctx) => {
      const loaded = await ctx.load(companyStream(companyId), evolveCompany, noCompany);
      const company = activeCompany(loaded.state);
      assertAgencyScope(p, company.agency_id, "company");
      const events = decideCompany(build(company), company);
      const state = events.reduce((s, e) => evolveCompany(s, asStored(e)), loaded.state);
      const metadata = metadataFor(req.context, { agency_id: company.agency_id, company_id: companyId });
      const balance = await loadBalance(ctx, companyId);
      return {
        appends: [appendTo(companyStream(companyId), loaded.version, events, metadata)],
        result: { company: activeCompany(state), balance: balance.state },
      };
    });
    return { company: await companyOf(pool, result.company, result.balance), position: positionOf(append) };
  };

  router.post("/companies", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const raw = unwrapBody(req.body, "company");
    // A supervisor's company belongs to its own partner when none is named.
    const withAgency =
      p.userType === "Supervisor" && raw && typeof raw === "object" && !("agency_id" in raw)
        ? { ...raw, agency_id: p.agencyId }
        : raw;
    const body = parseInput(CreateCompanyRequest, withAgency);
    assertAgencyScope(p, body.agency_id);
    await assertCompanyNameFree(pool, body.agency_id, body.name);
    const currency = body.currency ?? (await partnerCurrency(pool, body.agency_id));
    const companyId = newId();
    const { result, append } = await runCommand(store, async (ctx) => {
      const agency = await ctx.load(agencyStream(body.agency_id), evolveAgency, noAgency);
      activeAgency(agency.state);
      const fresh = ctx.fresh(companyStream(companyId), evolveCompany, noCompany);
      const events = decideCompany(
        {
          type: "RegisterCompany",
          company_id: companyId,
          agency_id: body.agency_id,
          name: body.name,
          currency,
          shared_bookings: body.shared_bookings,
          markups: body.markups ?? [],
        },
        fresh.state,
      );
      const metadata = metadataFor(req.context, { agency_id: body.agency_id, company_id: companyId });
      return {
        appends: [
          appendTo(companyStream(companyId), "no_stream", events, metadata),
          // Nothing written to the partner: its version is checked, so a company never lands in a deleted partner.
          appendTo(agencyStream(body.agency_id), agency.version, [], metadata),
        ],
        result: events.reduce((s, e) => evolveCompany(s, asStored(e)), fresh.state),
      };
    });
    res.status(201).json({
      company: await companyOf(pool, activeCompany(result), { amount: null, credit_limit: 0, closed: false }),
      position: positionOf(append),
    });
  });

  router.delete("/companies/:id", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const companyId = idParam(req, "id");
    const open = await openBookings(pool, { company_id: companyId });
    const { append } = await runCommand(store, async (ctx) => {
      const loaded = await ctx.load(companyStream(companyId), evolveCompany, noCompany);
      const company = activeCompany(loaded.state);
      assertAgencyScope(p, company.agency_id, "company");
      const balance = await loadBalance(ctx, companyId);
      const metadata = metadataFor(req.context, { agency_id: company.agency_id, company_id: companyId });
      const events = decideCompany(
        { type: "DeleteCompany", open_bookings: open, balance: balance.state.amount },
        company,
      );
      // The balance closes in the same append: an issue charging it meanwhile makes this append conflict, and
      // after it no charge, top-up or credit lands on the deleted company.
      return {
        appends: [
          appendTo(companyStream(companyId), loaded.version, events, metadata),
          appendTo(
            `balance-${companyId}`,
            balance.version,
            decideBalance({ type: "CloseBalance", company_id: companyId }, balance.state),
            metadata,
          ),
        ],
        result: null,
      };
    });
    res.json({ data: null, position: positionOf(append) });
  });

  router.put("/companies/:id/markups", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const companyId = idParam(req, "id");
    const body = parseInput(CompanyMarkupsRequest, unwrapBody(req.body, "company"));
    res.json(
      await onCompany(p, req, companyId, () => ({ type: "SetCompanyMarkups", markups: body.markups })),
    );
  });

  router.patch("/ticketing/company_shared_bookings/:id", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const companyId = idParam(req, "id");
    const body = parseInput(SharedBookingsRequest, unwrapBody(req.body, "company_shared_booking", "company"));
    res.json(
      await onCompany(p, req, companyId, () => ({ type: "SetSharedBookings", shared_bookings: body.active })),
    );
  });

  router.delete("/agent_company_relationships/:id", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const relationshipId = idParam(req, "id");
    const { rows } = await pool.query<{ user_id: string; company_id: string; agency_id: string }>(
      `SELECT r.user_id, r.company_id, c.agency_id FROM read.agent_company_relationships r
         JOIN read.companies c ON c.id = r.company_id WHERE r.id = $1`,
      [relationshipId],
    );
    const relationship = rows[0];
    if (!relationship) throw new NotFound("No such relationship", "relationship_not_found");
    assertAgencyScope(p, relationship.agency_id, "relationship");
    const { user_id, company_id, agency_id } = relationship;
    const { append } = await runCommand(store, async (ctx) => {
      const user = await ctx.load(userStream(user_id), evolveUser, noUser);
      if (user.state.status !== "active" || !user.state.company_ids.includes(company_id))
        throw new NotFound("No such relationship", "relationship_not_found");
      const metadata = metadataFor(req.context, { agency_id, company_id });
      const requestId = joinRequestId(user_id, agency_id);
      const request = await ctx.load(joinRequestStream(requestId), evolveJoinRequest, noJoinRequest);
      return {
        appends: [
          appendTo(
            userStream(user_id),
            user.version,
            [{ type: "UserDisconnectedFromCompany", data: { user_id, company_id } }],
            metadata,
          ),
          // Disconnecting resets the connection request, so the agent may ask again.
          appendTo(
            joinRequestStream(requestId),
            request.version,
            decideJoinRequest({ type: "ResetJoinRequest" }, request.state),
            metadata,
          ),
        ],
        result: null,
      };
    });
    res.json({ data: null, position: positionOf(append) });
  });

  router.post("/join_agency_requests", async (req, res) => {
    const p = requireUserType(req, "Agent");
    if (p.demo) throw new NotFound("A demo user joins no partner", "demo_user");
    const body = parseInput(
      JoinAgencyRequestBody,
      unwrapBody(req.body, "join_agency_request", "join_agency"),
    );
    const requestId = joinRequestId(p.userId, body.agency_id);
    const { result, append } = await runCommand(store, async (ctx) => {
      activeAgency((await ctx.load(agencyStream(body.agency_id), evolveAgency, noAgency)).state);
      if (body.company_id) {
        const company = (await ctx.load(companyStream(body.company_id), evolveCompany, noCompany)).state;
        if (company.status !== "active" || company.agency_id !== body.agency_id)
          throw new NotFound("No such company", "company_not_found");
      }
      const request = await ctx.load(joinRequestStream(requestId), evolveJoinRequest, noJoinRequest);
      const events = decideJoinRequest(
        {
          type: "SendJoinRequest",
          request_id: requestId,
          user_id: p.userId,
          agency_id: body.agency_id,
          company_id: body.company_id ?? null,
        },
        request.state,
      );
      const metadata = metadataFor(req.context, {
        agency_id: body.agency_id,
        company_id: body.company_id ?? null,
      });
      return {
        appends: [appendTo(joinRequestStream(requestId), request.version, events, metadata)],
        result: events.reduce<JoinRequestState>(evolveJoin, request.state),
      };
    });
    res.status(201).json({ join_agency: joinAgencyOf(result), position: positionOf(append) });
  });

  router.patch("/join_agency_requests/:id", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const requestId = idParam(req, "id");
    const raw = unwrapBody(req.body, "join_agency_request", "join_agency");
    const body = parseInput(
      JoinAgencyDecision,
      raw &&
        typeof raw === "object" &&
        !("status" in raw) &&
        typeof (raw as { accepted?: unknown }).accepted === "boolean"
        ? { ...raw, status: (raw as { accepted: boolean }).accepted ? "accepted" : "rejected" }
        : raw,
    );
    const { result, append } = await runCommand(store, async (ctx) => {
      const request = await ctx.load(joinRequestStream(requestId), evolveJoinRequest, noJoinRequest);
      const sent = request.state;
      if (sent.status === "none") throw new NotFound("No such connection request", "join_request_not_found");
      assertAgencyScope(p, sent.agency_id, "join_request");
      const metadata = metadataFor(req.context, { agency_id: sent.agency_id, company_id: null });
      if (body.status === "rejected") {
        const events = decideJoinRequest({ type: "RejectJoinRequest" }, sent);
        return {
          appends: [appendTo(joinRequestStream(requestId), request.version, events, metadata)],
          result: events.reduce<JoinRequestState>(evolveJoin, sent),
        };
      }
      const events = decideJoinRequest(
        { type: "AcceptJoinRequest", company_id: body.company_id ?? null },
        sent,
      );
      const accepted = events.reduce<JoinRequestState>(evolveJoin, sent);
      if (accepted.status !== "accepted" || !accepted.company_id)
        throw new Error("accepting decided no company");
      const companyId = accepted.company_id;
      const company = await ctx.load(companyStream(companyId), evolveCompany, noCompany);
      if (company.state.status !== "active" || company.state.agency_id !== sent.agency_id)
        throw new NotFound("No such company", "company_not_found");
      const user = await ctx.load(userStream(sent.user_id), evolveUser, noUser);
      if (user.state.status !== "active") throw new NotFound("No such agent", "user_not_found");
      if (
        user.state.agency_id &&
        user.state.agency_id !== sent.agency_id &&
        user.state.company_ids.length > 0
      )
        throw new IllegalState(
          "The agent works for another partner; it must be disconnected there first",
          "agent_in_other_agency",
        );
      return {
        appends: [
          appendTo(joinRequestStream(requestId), request.version, events, metadata),
          appendTo(
            userStream(sent.user_id),
            user.version,
            [
              {
                type: "UserConnectedToCompany",
                data: { user_id: sent.user_id, agency_id: sent.agency_id, company_id: companyId },
              },
            ],
            { ...metadata, scope: { agency_id: sent.agency_id, company_id: companyId } },
          ),
          appendTo(companyStream(companyId), company.version, [], metadata),
        ],
        result: accepted,
      };
    });
    res.json({ join_agency: joinAgencyOf(result), position: positionOf(append) });
  });

  /** Registers an invited supervisor or support user, then sends the invitation. */
  const invite = async (
    req: Request,
    user: Omit<UserRegistered, "user_id" | "demo_user" | "auth_method" | "phone"> & {
      phone?: string | undefined;
    },
    partner: { id: string } | null,
  ) => {
    const userId = newId();
    const registered: UserRegistered = {
      ...user,
      phone: user.phone || null,
      user_id: userId,
      demo_user: false,
      auth_method: "otp",
    };
    let partnerName: string | null = null;
    const { append } = await runCommand(store, async (ctx) => {
      const metadata = metadataFor(req.context, { agency_id: registered.agency_id, company_id: null });
      const appends = await registerUserAppends(ctx, registered, metadata);
      if (partner) {
        const agency = await ctx.load(agencyStream(partner.id), evolveAgency, noAgency);
        partnerName = activeAgency(agency.state).name;
        appends.push(appendTo(agencyStream(partner.id), agency.version, [], metadata));
      }
      return { appends, result: null };
    });
    await sendInvitation(
      deps,
      {
        email: registered.email,
        first_name: registered.first_name,
        language: registered.language,
        role: registered.user_type === "Support" ? "Support" : "Supervisor",
        partner: partnerName,
      },
      req.context.traceId,
    );
    return {
      person: personOf({ ...registered, id: userId, active: true }),
      position: positionOf(append),
    };
  };

  router.post("/agencies/:id/supervisors", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const agencyId = idParam(req, "id");
    assertAgencyScope(p, agencyId);
    const body = parseInput(InviteUserRequest, unwrapBody(req.body, "supervisor", "user"));
    const { rows } = await pool.query<{ id: string }>(
      "SELECT id FROM read.companies WHERE agency_id = $1 AND NOT deleted ORDER BY registered_at",
      [agencyId],
    );
    const own = rows.map((r) => r.id);
    const foreign = (body.company_ids ?? []).filter((id) => !own.includes(id));
    if (foreign.length > 0) throw new NotFound("No such company", "company_not_found");
    const { person, position } = await invite(
      req,
      {
        email: body.email,
        first_name: body.first_name,
        last_name: body.last_name,
        phone: body.phone,
        language: body.language,
        user_type: "Supervisor",
        agency_id: agencyId,
        company_ids: body.company_ids ?? own,
      },
      { id: agencyId },
    );
    res.status(201).json({ supervisor: person, position });
  });

  /** A supervisor of the partner in the path, or a 404 (another partner's, an agent, a removed one). */
  const loadSupervisor = async (
    ctx: Parameters<Parameters<typeof runCommand>[1]>[0],
    agencyId: string,
    id: string,
  ) => {
    const user = await ctx.load(userStream(id), evolveUser, noUser);
    if (
      user.state.status !== "active" ||
      user.state.user_type !== "Supervisor" ||
      user.state.agency_id !== agencyId
    )
      throw new NotFound("No such supervisor", "supervisor_not_found");
    return { state: user.state, version: user.version };
  };

  router.patch("/agencies/:id/supervisors/:supervisorId", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const agencyId = idParam(req, "id");
    const supervisorId = idParam(req, "supervisorId");
    assertAgencyScope(p, agencyId);
    const body = parseInput(UpdateSupervisorRequest, unwrapBody(req.body, "supervisor", "user"));
    const { result, append } = await runCommand(store, async (ctx) => {
      const user = await loadSupervisor(ctx, agencyId, supervisorId);
      const { active, ...details } = body;
      const events: { type: string; data: unknown }[] = [];
      const changed = Object.fromEntries(
        Object.entries(details).filter(
          ([key, value]) => value !== undefined && value !== user.state[key as keyof typeof user.state],
        ),
      );
      if (Object.keys(changed).length > 0) events.push({ type: "AccountDetailsUpdated", data: changed });
      if (active !== undefined && active !== user.state.active)
        events.push({ type: "UserActivationSet", data: { user_id: supervisorId, active } });
      const metadata = metadataFor(req.context, { agency_id: agencyId, company_id: null });
      const after = events.reduce(evolveUser, user.state);
      return { appends: [appendTo(userStream(supervisorId), user.version, events, metadata)], result: after };
    });
    if (result.status !== "active") throw new NotFound("No such supervisor", "supervisor_not_found");
    if (!result.active) await endSessionsOf(pool, supervisorId);
    res.json({ supervisor: personOf({ ...result, id: supervisorId }), position: positionOf(append) });
  });

  router.delete("/agencies/:id/supervisors/:supervisorId", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const agencyId = idParam(req, "id");
    const supervisorId = idParam(req, "supervisorId");
    assertAgencyScope(p, agencyId);
    const { append } = await runCommand(store, async (ctx) => {
      const user = await loadSupervisor(ctx, agencyId, supervisorId);
      const claim = await ctx.load(emailStream(user.state.email), evolveEmailClaim, { user_id: null });
      const metadata = metadataFor(req.context, { agency_id: agencyId, company_id: null });
      return {
        appends: [
          appendTo(
            userStream(supervisorId),
            user.version,
            [{ type: "UserRemoved", data: { user_id: supervisorId } }],
            metadata,
          ),
          // The address is free again: it can be invited anew.
          appendTo(
            emailStream(user.state.email),
            claim.version,
            claim.state.user_id === supervisorId
              ? [{ type: "EmailReleased", data: { user_id: supervisorId } }]
              : [],
            metadata,
          ),
        ],
        result: null,
      };
    });
    await endSessionsOf(pool, supervisorId);
    res.json({ data: null, position: positionOf(append) });
  });

  /**
   * The company the caller sells for when a search names none: agents among their own companies, supervisors among
   * their partner's, administrators any (DESIGN.md section 5); another one is answered as missing.
   */
  router.put("/account/selling_company", async (req, res) => {
    const p = requirePrincipal(req);
    if (p.demo) throw new NotFound("No such company", "company_not_found");
    const { company_id } = parseInput(SellingCompanyRequest, unwrapBody(req.body, "account"));
    const { result, append } = await runCommand(store, async (ctx) => {
      const company = await ctx.load(companyStream(company_id), evolveCompany, noCompany);
      const c = company.state;
      const mine =
        c.status === "active" &&
        (isAdministrator(p) ||
          (p.userType === "Supervisor" && c.agency_id === p.agencyId) ||
          (p.userType === "Agent" && p.companyIds.includes(company_id)));
      if (!mine) throw new NotFound("No such company", "company_not_found");
      const user = await ctx.load(userStream(p.userId), evolveUser, noUser);
      if (user.state.status !== "active")
        throw new NotFound("The account does not exist", "account_not_found");
      const events = [{ type: "SellingCompanyChosen", data: { user_id: p.userId, company_id } }];
      const metadata = metadataFor(req.context, {
        agency_id: c.status === "active" ? c.agency_id : null,
        company_id,
      });
      return {
        appends: [
          appendTo(userStream(p.userId), user.version, events, metadata),
          appendTo(companyStream(company_id), company.version, [], metadata),
        ],
        result: chosenFirst(user.state, company_id),
      };
    });
    res.json({ data: { company_ids: result }, position: positionOf(append) });
  });

  router.post("/supports", async (req, res) => {
    requireUserType(req, "Admin");
    const body = parseInput(InviteUserRequest, unwrapBody(req.body, "support", "user"));
    const { person, position } = await invite(
      req,
      {
        email: body.email,
        first_name: body.first_name,
        last_name: body.last_name,
        phone: body.phone,
        language: body.language,
        user_type: "Support",
        agency_id: null,
        company_ids: [],
      },
      null,
    );
    res.status(201).json({ support: person, position });
  });

  return router;
}

/** The currency of a partner's first channel: what its companies' balances are naturally kept in. */
async function partnerCurrency(pool: pg.Pool, agencyId: string): Promise<string> {
  const { rows } = await pool.query<{ currency: string }>(
    "SELECT currency FROM read.channels WHERE agency_id = $1 AND NOT deleted ORDER BY created_at LIMIT 1",
    [agencyId],
  );
  return rows[0]?.currency ?? "UAH";
}

/** An event just decided, as a fold reads it (only type and data matter to these folds). */
function asStored(e: { type: string; data: unknown }) {
  return {
    globalPosition: 0n,
    transactionId: 0n,
    streamId: "",
    streamPosition: 0,
    eventId: "",
    type: e.type,
    data: e.data,
    metadata: undefined as never,
    recordedAt: new Date(0),
  };
}
