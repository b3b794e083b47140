import type { ApiError } from "@skyward/contracts/errors";
import { Position, parsePosition } from "@skyward/contracts/position";
import {
  CreateTravellerRequest,
  type Traveller,
  type TravellerProfile,
  UpdateTravellerRequest,
} from "@skyward/contracts/travellers";
import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import { requireUserType } from "@skyward/infra/http/auth";
import type { Principal } from "@skyward/infra/http/context";
import { DomainError, InvalidInput, NotFound } from "@skyward/infra/http/errors";
import { parseInput } from "@skyward/infra/http/validate";
import { newId } from "@skyward/infra/ids";
import { waitForReadModels } from "@skyward/infra/projections/read-your-writes";
import {
  createTravellerKey,
  destroyTravellerKey,
  seal,
  travellerKey,
} from "@skyward/infra/travellers/personal-data";
import { type Request, Router } from "express";
import type pg from "pg";
import { positionOf } from "../command-answer.ts";
import type { CommandDeps } from "../deps.ts";
import { appendTo } from "../directory/administration.ts";
import { activeCompany, companyStream, evolveCompany, noCompany } from "../directory/company.ts";
import {
  decideTraveller,
  evolveTraveller,
  noTraveller,
  type TravellerState,
  travellerStream,
} from "./traveller.ts";

/** Who keeps travellers: everyone who sells (auditors only read). */
const KEEPERS = ["Agent", "Supervisor", "Admin", "Support"] as const;
/** Who erases one (a data subject's request, handled by the agency): supervisors and administrators. */
const ERASERS = ["Supervisor", "Admin", "Support"] as const;

/** A likely duplicate: the same name and date of birth in the same company. The answer names the one kept. */
class LikelyDuplicate extends DomainError {
  constructor(readonly existingId: string) {
    super(
      409,
      "traveller_duplicate",
      "Conflict",
      `A traveller with this name and date of birth is already kept (${existingId}); use it, or save with allow_duplicate`,
      { pointer: "/traveller" },
    );
  }
  override toApiErrors(): ApiError[] {
    return super.toApiErrors().map((e) => ({ ...e, meta: { traveller_id: this.existingId } }));
  }
}

const idParam = (req: Request): string => {
  const value = req.params.id;
  if (typeof value !== "string" || !/^[\w-]{1,100}$/.test(value))
    throw new NotFound("No such traveller", "traveller_not_found");
  return value;
};

/** The company a new traveller is kept in: the agent's own (or one of them), one of a supervisor's agency, any for administrators. */
async function companyFor(
  pool: pg.Pool,
  p: Principal,
  companyId: string | undefined,
): Promise<{ id: string; agency_id: string }> {
  const wanted = companyId ?? (p.userType === "Agent" ? p.companyIds[0] : undefined);
  if (!wanted) throw new InvalidInput([{ pointer: "/company_id", detail: "is required", location: "body" }]);
  const { rows } = await pool.query<{ id: string; agency_id: string }>(
    "SELECT id, agency_id FROM read.companies WHERE id = $1 AND NOT deleted",
    [wanted],
  );
  const company = rows[0];
  const inScope =
    company &&
    (p.userType === "Admin" ||
      p.userType === "Support" ||
      (p.userType === "Supervisor" && company.agency_id === p.agencyId) ||
      (p.userType === "Agent" && p.companyIds.includes(company.id)));
  if (!inScope) throw new NotFound("No such company", "company_not_found");
  return company;
}

/** A kept traveller outside the caller's scope is one that does not exist (DESIGN.md section 5). */
function assertTravellerScope(
  p: Principal,
  state: TravellerState,
): asserts state is Exclude<TravellerState, { status: "none" }> {
  const notFound = new NotFound("No such traveller", "traveller_not_found");
  if (state.status === "none") throw notFound;
  if (p.demo) {
    if (state.demo_owner !== p.userId) throw notFound;
    return;
  }
  if (state.demo_owner !== null) throw notFound;
  if (p.userType === "Admin" || p.userType === "Support") return;
  if (p.userType === "Supervisor" && state.agency_id === p.agencyId) return;
  if (p.userType === "Agent" && p.companyIds.includes(state.company_id)) return;
  throw notFound;
}

/**
 * The duplicate check reads the travellers read model: with `X-Min-Position` (the client's last command) it first
 * waits, bounded, until the model has passed it, so a traveller the client just kept is seen.
 */
async function caughtUp(pool: pg.Pool, req: Request): Promise<void> {
  const header = req.get("x-min-position");
  if (header)
    await waitForReadModels(pool, ["travellers"], parsePosition(parseInput(Position, header, "header")));
}

/** Another kept traveller of the company with the same names (without case) and date of birth. */
async function likelyDuplicate(
  pool: pg.Pool,
  companyId: string,
  demoOwner: string | null,
  profile: TravellerProfile,
  except: string | null,
): Promise<string | null> {
  const { rows } = await pool.query<{ id: string }>(
    `SELECT id FROM read.travellers
      WHERE company_id = $1 AND demo_owner IS NOT DISTINCT FROM $2 AND NOT erased
        AND upper(first_name) = upper($3) AND upper(last_name) = upper($4) AND date_of_birth = $5::date
        AND id IS DISTINCT FROM $6
      LIMIT 1`,
    [companyId, demoOwner, profile.first_name, profile.last_name, profile.date_of_birth, except],
  );
  return rows[0]?.id ?? null;
}

/** A traveller as readers will see it, from the profile the command kept (the read model follows shortly). */
export function travellerView(
  belonging: { traveller_id: string; company_id: string; agency_id: string },
  profile: TravellerProfile | null,
  at: Date,
): Traveller {
  return {
    id: belonging.traveller_id,
    company_id: belonging.company_id,
    agency_id: belonging.agency_id,
    erased: profile === null,
    first_name: profile?.first_name.toUpperCase() ?? null,
    last_name: profile?.last_name.toUpperCase() ?? null,
    date_of_birth: profile?.date_of_birth ?? null,
    gender: profile?.gender ?? null,
    documents: profile?.documents ?? [],
    contacts: profile?.contacts ?? {},
    loyalty: profile?.loyalty ?? [],
    ssrs: profile?.ssrs ?? [],
    updated_at: at.toISOString(),
  };
}

/** Names as travel documents print them: upper case. */
const normalised = (profile: TravellerProfile): TravellerProfile => ({
  ...profile,
  first_name: profile.first_name.toUpperCase(),
  last_name: profile.last_name.toUpperCase(),
});

/** Travellers the agency keeps (issue 23, items 4 and 6): register, change, erase. Reads are the query service's. */
export function travellerRoutes(deps: CommandDeps): Router {
  const router = Router();
  const { pool, store } = deps;

  router.post("/travellers", async (req, res) => {
    const p = requireUserType(req, ...KEEPERS);
    const body = parseInput(CreateTravellerRequest, req.body);
    const company = await companyFor(pool, p, body.company_id);
    const demoOwner = p.demo ? p.userId : null;
    const profile = normalised(body.traveller);
    if (!body.allow_duplicate) {
      await caughtUp(pool, req);
      const existing = await likelyDuplicate(pool, company.id, demoOwner, profile, null);
      if (existing) throw new LikelyDuplicate(existing);
    }
    const travellerId = newId();
    // The key is stored before any event names the traveller; a failed append leaves an unused key behind.
    const key = await createTravellerKey(pool, travellerId, company.id);
    const belonging = {
      traveller_id: travellerId,
      company_id: company.id,
      agency_id: company.agency_id,
      demo_owner: demoOwner,
    };
    const { append } = await runCommand(store, async (ctx) => {
      // The company is read from its stream and its version checked by the same commit: a company deleted after the
      // read model was read takes no traveller.
      const kept = await ctx.load(companyStream(company.id), evolveCompany, noCompany);
      activeCompany(kept.state);
      const fresh = ctx.fresh(travellerStream(travellerId), evolveTraveller, noTraveller);
      const events = decideTraveller(
        { type: "RegisterTraveller", ...belonging, personal: seal(key, profile) },
        fresh.state,
      );
      const metadata = metadataFor(req.context, { agency_id: company.agency_id, company_id: company.id });
      return {
        appends: [
          appendTo(travellerStream(travellerId), "no_stream", events, metadata),
          appendTo(companyStream(company.id), kept.version, [], metadata),
        ],
        result: null,
      };
    });
    res
      .status(201)
      .json({ traveller: travellerView(belonging, profile, deps.now()), position: positionOf(append) });
  });

  router.put("/travellers/:id", async (req, res) => {
    const p = requireUserType(req, ...KEEPERS);
    const travellerId = idParam(req);
    const body = parseInput(UpdateTravellerRequest, req.body);
    const profile = normalised(body.traveller);
    await caughtUp(pool, req);
    const { result, append } = await runCommand(store, async (ctx) => {
      const loaded = await ctx.load(travellerStream(travellerId), evolveTraveller, noTraveller);
      const state = loaded.state;
      assertTravellerScope(p, state);
      const existing = await likelyDuplicate(pool, state.company_id, state.demo_owner, profile, travellerId);
      if (existing) throw new LikelyDuplicate(existing);
      const key = state.status === "kept" ? await travellerKey(pool, travellerId) : null;
      // Without its key (an erasure that has not recorded itself yet) nothing can be sealed: decided as erased.
      const events = decideTraveller(
        { type: "UpdateTraveller", personal: key ? seal(key, profile) : null },
        key ? state : { ...state, status: "erased" },
      );
      const metadata = metadataFor(req.context, { agency_id: state.agency_id, company_id: state.company_id });
      return {
        appends: [appendTo(travellerStream(travellerId), loaded.version, events, metadata)],
        result: state,
      };
    });
    res.json({ traveller: travellerView(result, profile, deps.now()), position: positionOf(append) });
  });

  /** Right to erasure: the traveller's key is destroyed, so nothing personal of theirs can be read again. */
  router.delete("/travellers/:id", async (req, res) => {
    const p = requireUserType(req, ...ERASERS);
    const travellerId = idParam(req);
    const { result, append } = await runCommand(store, async (ctx) => {
      const loaded = await ctx.load(travellerStream(travellerId), evolveTraveller, noTraveller);
      assertTravellerScope(p, loaded.state);
      const events = decideTraveller({ type: "EraseTraveller" }, loaded.state);
      const metadata = metadataFor(req.context, {
        agency_id: loaded.state.agency_id,
        company_id: loaded.state.company_id,
      });
      return {
        appends: [appendTo(travellerStream(travellerId), loaded.version, events, metadata)],
        result: loaded.state,
      };
    });
    // After the event: a repeated erasure (the first one's process died here) destroys a key left behind.
    await destroyTravellerKey(pool, travellerId);
    await forgetAnswers(pool, travellerId);
    res.json({ traveller: travellerView(result, null, deps.now()), position: positionOf(append) });
  });

  return router;
}

/** Answers kept for idempotent retries hold the profile as it was sent: those of the traveller go too. */
async function forgetAnswers(pool: pg.Pool, travellerId: string): Promise<void> {
  await pool.query("DELETE FROM app.idempotency_keys WHERE position($1 in response::text) > 0", [
    travellerId,
  ]);
}
