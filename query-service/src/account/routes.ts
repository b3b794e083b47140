import type { AccountDetailsResponse } from "@skyward/contracts/account";
import { requirePrincipal } from "@skyward/infra/http/auth";
import { NotFound } from "@skyward/infra/http/errors";
import { freshReadModels } from "@skyward/infra/http/read-models";
import { Router } from "express";
import type pg from "pg";
import type { QueryDeps } from "../deps.ts";

/** A row of read.channels as `to_jsonb` writes it (timestamps as ISO strings). */
interface ChannelJson {
  id: string;
  agency_id: string;
  title: string;
  currency: string;
  form_of_payment: "balance" | "card";
  active_by_admin: boolean;
  active_by_supervisor: boolean;
  deleted: boolean;
  credential_active: boolean;
  credential_set: boolean;
  source_web: boolean;
  source_api: boolean;
  source_extension: boolean;
  companies_off: string[];
  nego_code: string | null;
  resident_fares_code: string | null;
  ticketing_card_id: string | null;
  card_ids: string[];
  created_at: string;
  updated_at: string;
  /** Not a column of read.channels: the answer derives it from the two switches when the row has none. */
  active?: boolean;
}

interface AccountRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  user_type: AccountDetailsResponse["account"]["user_type"];
  phone: string | null;
  language: AccountDetailsResponse["account"]["language"];
  demo_user: boolean;
  onboarding: AccountDetailsResponse["onboarding"];
  terms_version: string | null;
  api_token: boolean;
  active: boolean;
  channels: ChannelJson[];
  companies: { id: string; name: string }[];
  agencies: { id: string; name: string }[];
}

/**
 * The account `GET /account/details` answers, or null when the user is unknown: also written into the page's HTML for
 * the signed-in caller (scripts/src/page-data.ts), so the first load asks no separate request for who is signed in.
 */
export async function accountDetails(pool: pg.Pool, userId: string): Promise<AccountDetailsResponse | null> {
  const { rows } = await pool.query<AccountRow>(
    `SELECT u.id, u.email, u.first_name, u.last_name, u.user_type, u.phone, u.language, u.demo_user,
              u.onboarding, u.terms_version, u.api_token, u.active,
              coalesce((SELECT json_agg(to_jsonb(ch) ORDER BY ch.created_at) FROM read.channels ch
                         WHERE ch.agency_id = u.agency_id AND NOT ch.deleted), '[]') AS channels,
              coalesce((SELECT json_agg(json_build_object('id', c.id, 'name', c.name)
                                ORDER BY array_position(u.company_ids, c.id))
                          FROM read.companies c WHERE c.id = ANY(u.company_ids)), '[]') AS companies,
              coalesce((SELECT json_agg(json_build_object('id', a.id, 'name', a.name))
                          FROM read.agencies a WHERE a.id = u.agency_id), '[]') AS agencies
         FROM read.users u WHERE u.id = $1`,
    [userId],
  );
  const u = rows[0];
  if (!u) return null;
  return {
    account: {
      skyward_id: u.id,
      email: u.email,
      first_name: u.first_name,
      last_name: u.last_name,
      user_type: u.user_type,
      phone: u.phone,
      language: u.language,
      company: u.companies[0] ?? null,
      companies: u.companies,
      agencies: u.agencies,
      demo_user: u.demo_user,
      logo: null,
      score: null,
    },
    // Users cannot be switched off yet, and ticketing channels are not offered per user yet.
    // The partner's ticketing channels the user sells through, as the channel read model has them.
    settings: {
      active: u.active,
      active_by_supervisor: u.active,
      api_token: u.api_token,
      channels: u.channels.map(({ agency_id: _a, created_at: _c, deleted: _d, ...ch }) => ({
        ...ch,
        active: ch.active ?? Boolean(ch.active_by_admin && ch.active_by_supervisor),
      })),
    },
    onboarding: u.onboarding,
    terms_version: u.terms_version,
  };
}

/** The caller's own account: who they are, where they work, their settings and onboarding state. */
export function accountRoutes({ pool, readModels }: QueryDeps): Router {
  const router = Router();
  // The account lists the channels the user sells through: a read after a channel's change waits for them too.
  const fresh = freshReadModels(readModels, ["directory", "channels"]);

  router.get("/account/details", fresh, async (req, res) => {
    const body = await accountDetails(pool, requirePrincipal(req).userId);
    if (!body) throw new NotFound("The account does not exist", "account_not_found");
    res.json(body);
  });

  return router;
}
