import type { AskResponse } from "@skyward/contracts/assistant";
import type { Principal } from "@skyward/infra/http/context";
import type pg from "pg";
import { entity } from "./directory.ts";
import { parseAdminRequest } from "./embedded.ts";

/**
 * The answer to an agent's request (issue 25, rule 2): agents may run none of the assistant's commands by hand, so
 * whatever they ask is refused with that reason, never an HTTP error and never a plan (`/admin_panel/execute` stays
 * closed to them). The request is read against the agent's own companies only to say which command was refused:
 * the answer names the command, never an entity.
 */
export async function agentRefusal(pool: pg.Pool, p: Principal, text: string): Promise<AskResponse> {
  const { rows } = await pool.query<{ id: string; name: string; agency_id: string }>(
    "SELECT id, name, agency_id FROM read.companies WHERE NOT deleted AND id = ANY($1::text[])",
    [[...p.companyIds]],
  );
  const dir = {
    entities: rows.map((r) =>
      entity({ kind: "company", id: r.id, name: r.name, agency_id: r.agency_id, detail: null }),
    ),
  };
  const agencyId = rows[0]?.agency_id ?? p.agencyId;
  const command = parseAdminRequest(text, dir, { userType: "Admin", agencyId })[0]?.name;
  return {
    kind: "refuse",
    refusal: {
      code: "not_allowed",
      preview: {
        code: "not_allowed",
        params: { command: command ?? "" },
        text: command
          ? `Your role may not ${command.replaceAll("_", " ")}: the assistant does only what you could do by hand`
          : "Agents may not use the admin assistant: it does only what you could do by hand",
      },
    },
  };
}
