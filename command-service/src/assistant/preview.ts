import type { Change, Preview } from "@skyward/contracts/assistant";
import type pg from "pg";
import type { ResolvedCall } from "./interpret.ts";

/** What a step will change, read from the read models before anything runs (before → after where it applies). */
export interface StepPreview {
  preview: Preview;
  changes: Change[];
  /** Arguments as the step will run (markups merged into the list the route replaces). */
  args: Record<string, unknown>;
}

type Json = Record<string, unknown>;
type Money = { amount: number; currency: string };

const money = (m: Money | null | undefined) => (m ? `${(m.amount / 100).toFixed(2)} ${m.currency}` : "—");
const onOff = (v: boolean) => (v ? "on" : "off");

const p = (code: string, params: Preview["params"], text: string): Preview => ({ code, params, text });

interface MarkupRule {
  carrier: string | null;
  charge: unknown;
}
/**
 * A new rule replaces the one for the same carrier (or the one for all carriers); the others stay. An empty list
 * asked for ("remove all markups"), or a list whose step says it is the whole list (`whole_list`: "PS only, the rest
 * removed"), replaces the list.
 */
export const mergeRules = (before: MarkupRule[], added: MarkupRule[], whole: unknown): MarkupRule[] =>
  added.length === 0 || whole === true
    ? added
    : [...before.filter((r) => !added.some((a) => a.carrier === r.carrier)), ...added];

async function one<T extends pg.QueryResultRow>(
  pool: pg.Pool,
  sql: string,
  params: unknown[],
): Promise<T | null> {
  // An entity an earlier step of the plan creates ("$new:0") has no row yet: nothing to read before it.
  if (params.some((v) => typeof v === "string" && v.startsWith("$new:"))) return null;
  return (await pool.query<T>(sql, params)).rows[0] ?? null;
}

export async function previewStep(pool: pg.Pool, call: ResolvedCall): Promise<StepPreview> {
  const a = call.args as Json;
  const body = (a.body ?? {}) as Json;
  const name = (path: string) => call.entities[path]?.name ?? "";
  switch (call.entry.name) {
    case "balance_transaction": {
      const companyId = String(body.company_id);
      const row = await one<{ amount: string | null; currency: string }>(
        pool,
        `SELECT b.amount::text AS amount, c.currency FROM read.companies c
           LEFT JOIN read.company_balances b ON b.company_id = c.id WHERE c.id = $1`,
        [companyId],
      );
      const currency = row?.currency ?? "UAH";
      const amount =
        typeof body.amount === "number" ? { amount: body.amount, currency } : (body.amount as Money);
      const before = { amount: Number(row?.amount ?? 0), currency };
      const after = amount.currency === currency ? { amount: before.amount + amount.amount, currency } : null;
      const kind = body.kind === "correction" ? "correction" : "top_up";
      return {
        args: a,
        changes: [{ field: "balance", before, after }],
        preview: p(
          kind,
          {
            company: name("body.company_id"),
            amount: amount.amount,
            currency: amount.currency,
            reason: String(body.reason ?? ""),
          },
          `${kind === "top_up" ? "Top up" : "Correct"} the balance of ${name("body.company_id")} by ${money(amount)} (reason: ${String(body.reason ?? "")}): ${money(before)} → ${money(after)}`,
        ),
      };
    }
    case "set_credit_limit": {
      const row = await one<{ credit_limit: string; currency: string }>(
        pool,
        `SELECT coalesce(b.credit_limit, 0)::text AS credit_limit, c.currency FROM read.companies c
           LEFT JOIN read.company_balances b ON b.company_id = c.id WHERE c.id = $1`,
        [a.company_id],
      );
      const currency = row?.currency ?? "UAH";
      const limit = body.credit_limit as number | Money;
      const after = typeof limit === "number" ? { amount: limit, currency } : limit;
      const before = { amount: Number(row?.credit_limit ?? 0), currency };
      return {
        args: a,
        changes: [{ field: "credit_limit", before, after }],
        preview: p(
          "credit_limit",
          { company: name("company_id"), amount: after.amount, currency: after.currency },
          `Set the credit limit of ${name("company_id")}: ${money(before)} → ${money(after)}`,
        ),
      };
    }
    case "update_channel": {
      const row = await one<{
        active_by_admin: boolean;
        active_by_supervisor: boolean;
        agency: string | null;
      }>(
        pool,
        `SELECT ch.active_by_admin, ch.active_by_supervisor, a.name AS agency FROM read.channels ch
           LEFT JOIN read.agencies a ON a.id = ch.agency_id WHERE ch.id = $1`,
        [a.channel_id],
      );
      const changes: Change[] = [];
      for (const field of ["on_by_admin", "on_by_supervisor"] as const)
        if (typeof body[field] === "boolean")
          changes.push({
            field,
            // A channel the plan creates in an earlier step has no row yet: nothing before (null, not left out).
            before: (field === "on_by_admin" ? row?.active_by_admin : row?.active_by_supervisor) ?? null,
            after: body[field],
          });
      // Settings (issue 25: a nego code, how tickets are paid), shown as what they become.
      for (const field of ["nego_code", "form_of_payment"] as const)
        if (body[field] !== undefined) changes.push({ field, before: null, after: body[field] });
      const on = changes[0]?.after === true;
      // A channel this plan creates has no name in the read models yet: the step that creates it names it.
      const channel = name("channel_id") || String(a.channel_id ?? "");
      const switched = changes.some((c) => c.field === "on_by_admin" || c.field === "on_by_supervisor");
      return {
        args: a,
        changes,
        preview: switched
          ? p(
              on ? "channel_on" : "channel_off",
              { channel, partner: row?.agency ?? "" },
              `Switch ${onOff(on)} the channel ${channel} of ${row?.agency ?? ""}`,
            )
          : p(
              "channel_settings",
              { channel, partner: row?.agency ?? "" },
              `Change the settings of the channel ${channel} of ${row?.agency ?? ""}`,
            ),
      };
    }
    case "toggle_company_channel": {
      const row = await one<{ off: boolean }>(
        pool,
        "SELECT $2 = ANY(companies_off) AS off FROM read.channels WHERE id = $1",
        [a.channel_id, a.company_id],
      );
      const on = (body as { active: boolean }).active;
      return {
        args: a,
        changes: [{ field: "company_channel", before: row ? !row.off : null, after: on }],
        preview: p(
          on ? "company_channel_on" : "company_channel_off",
          { channel: name("channel_id"), company: name("company_id") },
          `Switch ${onOff(on)} the channel ${name("channel_id")} for ${name("company_id")}`,
        ),
      };
    }
    case "toggle_source_channel": {
      const source = String(a.source);
      const row = await one<{ active: boolean }>(
        pool,
        `SELECT CASE $2 WHEN 'api' THEN source_api WHEN 'web' THEN source_web ELSE source_extension END AS active
           FROM read.channels WHERE id = $1`,
        [a.channel_id, source],
      );
      const on = (body as { active: boolean }).active;
      return {
        args: a,
        changes: [{ field: `source_${source}`, before: row?.active ?? null, after: on }],
        preview: p(
          on ? "source_on" : "source_off",
          { channel: name("channel_id"), source },
          `Switch ${onOff(on)} ${source} selling on the channel ${name("channel_id")}`,
        ),
      };
    }
    case "toggle_global_gate":
    case "toggle_partner_gate":
    case "toggle_company_gate": {
      const [kind, id, label] =
        call.entry.name === "toggle_global_gate"
          ? [String(a.gate), "", String(a.gate)]
          : call.entry.name === "toggle_partner_gate"
            ? ["agency", String(a.agency_id), name("agency_id")]
            : ["company", String(a.company_id), name("company_id")];
      const row = await one<{ active: boolean }>(
        pool,
        "SELECT active FROM read.gates WHERE kind = $1 AND id = $2",
        [kind, id],
      );
      const on = (body as { active: boolean }).active;
      return {
        args: a,
        changes: [{ field: "gate", before: row?.active ?? true, after: on }],
        preview: p(
          on
            ? `gate_${kind === "agency" || kind === "company" ? kind : "global"}_on`
            : `gate_${kind === "agency" || kind === "company" ? kind : "global"}_off`,
          { name: label },
          `Switch ${onOff(on)} ticketing (${kind} gate) for ${label}`,
        ),
      };
    }
    case "set_company_markups": {
      const row = await one<{ markups: MarkupRule[] }>(
        pool,
        "SELECT markups FROM read.companies WHERE id = $1",
        [a.company_id],
      );
      const before = row?.markups ?? [];
      const { whole_list, ...rest } = a;
      const after = mergeRules(before, (body.markups as MarkupRule[]) ?? [], whole_list);
      return {
        args: { ...rest, body: { ...body, markups: after } },
        changes: [{ field: "markups", before, after }],
        preview: p(
          "company_markups",
          { company: name("company_id") },
          `Set the markups of ${name("company_id")}`,
        ),
      };
    }
    case "update_partner": {
      const row = await one<{ markups: MarkupRule[]; name: string }>(
        pool,
        "SELECT markups, name FROM read.agencies WHERE id = $1",
        [a.agency_id],
      );
      const changes: Change[] = [];
      const { whole_list, ...rest } = a;
      let next = body;
      if (Array.isArray(body.markups)) {
        const after = mergeRules(row?.markups ?? [], body.markups as MarkupRule[], whole_list);
        next = { ...body, markups: after };
        changes.push({ field: "markups", before: row?.markups ?? [], after });
      }
      if (typeof body.name === "string")
        changes.push({ field: "name", before: row?.name ?? null, after: body.name });
      return {
        args: { ...rest, body: next },
        changes,
        preview: p(
          "partner_update",
          { partner: name("agency_id") },
          `Change the partner ${name("agency_id")}`,
        ),
      };
    }
    case "set_transaction_fee": {
      const row = await one<{ transaction_fee: unknown }>(
        pool,
        "SELECT transaction_fee FROM read.agencies WHERE id = $1",
        [a.agency_id],
      );
      const after = (body as { transaction_fee: unknown }).transaction_fee;
      return {
        args: a,
        changes: [{ field: "transaction_fee", before: row?.transaction_fee ?? null, after }],
        preview: p(
          after === null ? "fee_removed" : "fee_set",
          { partner: name("agency_id") },
          `${after === null ? "Remove" : "Set"} the transaction fee of ${name("agency_id")}`,
        ),
      };
    }
    case "create_company": {
      const company = String(body.name ?? "");
      return {
        args: a,
        changes: [],
        preview: p(
          "company_create",
          {
            company,
            partner: name("body.agency_id"),
            currency: (body.currency as string | undefined) ?? null,
          },
          `Create the company ${company} in ${name("body.agency_id")}${body.currency ? ` (${String(body.currency)})` : ""}`,
        ),
      };
    }
    case "invite_supervisor": {
      const person = `${String(body.first_name ?? "")} ${String(body.last_name ?? "")}`.trim();
      return {
        args: a,
        changes: [],
        preview: p(
          "supervisor_invite",
          { person, email: String(body.email ?? ""), partner: name("agency_id") },
          `Invite ${person} <${String(body.email ?? "")}> as a supervisor of ${name("agency_id")}`,
        ),
      };
    }
    default:
      return {
        args: a,
        changes: [],
        preview: p("command", { command: call.entry.name }, `Run ${call.entry.name}`),
      };
  }
}
