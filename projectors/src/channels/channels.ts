import { CARD_EVENT_TYPES, CardEvent } from "@skyward/contracts/cards";
import { parseEvent, unhandledEvent } from "@skyward/contracts/events";
import { CHANNEL_EVENT_TYPES, ChannelEvent, GateEvent } from "@skyward/contracts/ticketing";
import type { ProjectionWriter } from "@skyward/infra/db";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { defineProjection, type Tables } from "@skyward/infra/projections/projection";

/** One row of the channel-change audit: who changed which channel or gate, when, before → after, from where. */
interface HistoryRow {
  event_id: string;
  event_type: string;
  stream_id: string;
  stream_position: number;
  global_position: string;
  at: string;
  actor_user_id: string | null;
  actor_role: string;
  source: string;
  trace_id: string;
  agency_id: string | null;
  company_id: string | null;
  channel_id: string | null;
  gate: string | null;
  field: string;
  before: unknown;
  after: unknown;
  /** The event as stored (its data and metadata hold no secret), for the row's link. */
  event: unknown;
}

type Name = "channels" | "cards" | "gates" | "channel_history";
const PARTNER_GATES = ["AgencyGateToggled", "CompanyGateToggled"];

/**
 * Ticketing channels, payment cards (never a number or a token), gates, and the channel-change audit supervisors
 * and administrators read (`channel_history`). Decisions still read the streams; these answer lists and audits.
 */
export const channels = defineProjection<Name>({
  name: "channels",
  version: 2,
  eventTypes: [...CHANNEL_EVENT_TYPES, ...CARD_EVENT_TYPES, "GateToggled", ...PARTNER_GATES],
  tables: ["channels", "cards", "gates", "channel_history"],
  setup: (t) => `
    CREATE TABLE ${t.channels} (
      id text PRIMARY KEY, agency_id text NOT NULL, title text NOT NULL, currency text NOT NULL,
      form_of_payment text NOT NULL, active_by_admin boolean NOT NULL DEFAULT true,
      active_by_supervisor boolean NOT NULL DEFAULT true, deleted boolean NOT NULL DEFAULT false,
      credential_active boolean NOT NULL, credential_set boolean NOT NULL DEFAULT false,
      source_web boolean NOT NULL, source_api boolean NOT NULL, source_extension boolean NOT NULL,
      companies_off text[] NOT NULL DEFAULT '{}', nego_code text, resident_fares_code text,
      ticketing_card_id text, card_ids text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL
    );
    CREATE INDEX ON ${t.channels} (agency_id);
    CREATE TABLE ${t.cards} (
      id text PRIMARY KEY, agency_id text, brand text NOT NULL, last4 text NOT NULL, exp_month int NOT NULL,
      exp_year int NOT NULL, holder text NOT NULL, channel_ids text[] NOT NULL DEFAULT '{}',
      deleted boolean NOT NULL DEFAULT false, created_at timestamptz NOT NULL
    );
    CREATE INDEX ON ${t.cards} (agency_id);
    CREATE TABLE ${t.gates} (
      kind text NOT NULL, id text NOT NULL, active boolean NOT NULL, updated_at timestamptz NOT NULL,
      PRIMARY KEY (kind, id)
    );
    CREATE TABLE ${t.channel_history} (
      global_position bigint PRIMARY KEY, event_id text NOT NULL UNIQUE, event_type text NOT NULL,
      stream_id text NOT NULL, stream_position int NOT NULL, at timestamptz NOT NULL, actor_user_id text,
      actor_role text NOT NULL, source text NOT NULL, trace_id text NOT NULL, agency_id text, company_id text,
      channel_id text, gate text, field text NOT NULL, before jsonb, after jsonb, event jsonb NOT NULL
    );
    CREATE INDEX ON ${t.channel_history} (agency_id, at DESC);
    CREATE INDEX ON ${t.channel_history} (channel_id, at DESC);
    CREATE INDEX ON ${t.channel_history} (at DESC);
  `,
  async apply(writer, stored, t) {
    const history: HistoryRow[] = [];
    for (const e of stored) {
      if (e.streamId.startsWith("card-")) await applyCard(writer, e, t);
      else if (e.type === "GateToggled" || PARTNER_GATES.includes(e.type))
        history.push(await applyGate(writer, e, t));
      else history.push(...(await applyChannel(writer, e, t)));
    }
    if (history.length > 0)
      await writer.query(
        `INSERT INTO ${t.channel_history} (global_position, event_id, event_type, stream_id, stream_position, at,
                actor_user_id, actor_role, source, trace_id, agency_id, company_id, channel_id, gate, field, before,
                after, event)
         SELECT x.global_position, x.event_id, x.event_type, x.stream_id, x.stream_position, x.at, x.actor_user_id,
                x.actor_role, x.source, x.trace_id, coalesce(x.agency_id, c.agency_id), x.company_id, x.channel_id,
                x.gate, x.field, x.before, x.after, x.event
           FROM jsonb_to_recordset($1::jsonb) AS x(event_id text, event_type text, stream_id text,
                stream_position int, global_position bigint, at timestamptz, actor_user_id text, actor_role text,
                source text, trace_id text, agency_id text, company_id text, channel_id text, gate text, field text,
                before jsonb, after jsonb, event jsonb)
           LEFT JOIN ${t.channels} c ON c.id = x.channel_id
         ON CONFLICT DO NOTHING`,
        [JSON.stringify(history)],
      );
  },
});

/** The audit row's who, when and where, from the event's metadata. */
function rowOf(
  e: StoredEvent,
  what: Pick<HistoryRow, "channel_id" | "gate" | "field" | "before" | "after"> &
    Partial<Pick<HistoryRow, "agency_id" | "company_id">>,
): HistoryRow {
  const m = e.metadata;
  return {
    event_id: e.eventId,
    event_type: e.type,
    stream_id: e.streamId,
    stream_position: e.streamPosition,
    global_position: e.globalPosition.toString(),
    at: e.recordedAt.toISOString(),
    actor_user_id: m.actor.user_id,
    actor_role: m.actor.role,
    source: m.source,
    trace_id: m.trace_id,
    agency_id: what.agency_id ?? m.scope.agency_id,
    company_id: what.company_id ?? null,
    channel_id: what.channel_id,
    gate: what.gate,
    field: what.field,
    before: what.before,
    after: what.after,
    event: { type: e.type, data: e.data, metadata: m },
  };
}

async function applyGate(writer: ProjectionWriter, e: StoredEvent, t: Tables<Name>): Promise<HistoryRow> {
  let kind: string;
  let id = "";
  let active: boolean;
  let scope: { agency_id?: string | null; company_id?: string | null } = {};
  if (e.type === "GateToggled") {
    const { data } = parseEvent(GateEvent, e);
    kind = data.gate;
    active = data.active;
    scope = { agency_id: null };
  } else {
    // The directory owns these streams; only the gate's switch is read here.
    active = (e.data as { active: boolean }).active;
    kind = e.type === "AgencyGateToggled" ? "agency" : "company";
    id = e.streamId.slice(e.streamId.indexOf("-") + 1);
    scope = kind === "agency" ? { agency_id: id } : { company_id: id };
  }
  await writer.query(
    `INSERT INTO ${t.gates} (kind, id, active, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (kind, id) DO UPDATE SET active = $3, updated_at = $4`,
    [kind, id, active, e.recordedAt],
  );
  return rowOf(e, {
    ...scope,
    channel_id: null,
    gate: kind,
    field: "active",
    before: !active,
    after: active,
  });
}

async function applyCard(writer: ProjectionWriter, e: StoredEvent, t: Tables<Name>): Promise<void> {
  const event = parseEvent(CardEvent, e);
  const id = e.streamId.slice("card-".length);
  switch (event.type) {
    case "CardRegistered": {
      const d = event.data;
      await writer.query(
        `INSERT INTO ${t.cards} (id, agency_id, brand, last4, exp_month, exp_year, holder, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
        [id, d.agency_id, d.brand, d.last4, d.exp_month, d.exp_year, d.holder, e.recordedAt],
      );
      return;
    }
    case "CardUpdated":
      await writer.query(`UPDATE ${t.cards} SET exp_month = $2, exp_year = $3, holder = $4 WHERE id = $1`, [
        id,
        event.data.exp_month,
        event.data.exp_year,
        event.data.holder,
      ]);
      return;
    case "CardAttachedToChannel":
      await writer.query(
        `UPDATE ${t.cards} SET channel_ids = array_append(array_remove(channel_ids, $2), $2) WHERE id = $1`,
        [id, event.data.channel_id],
      );
      return;
    case "CardDetachedFromChannel":
      await writer.query(`UPDATE ${t.cards} SET channel_ids = array_remove(channel_ids, $2) WHERE id = $1`, [
        id,
        event.data.channel_id,
      ]);
      return;
    case "CardDeleted":
      await writer.query(`UPDATE ${t.cards} SET deleted = true WHERE id = $1`, [id]);
      return;
    default:
      unhandledEvent(event);
  }
}

async function applyChannel(
  writer: ProjectionWriter,
  e: StoredEvent,
  t: Tables<Name>,
): Promise<HistoryRow[]> {
  const event = parseEvent(ChannelEvent, e);
  const id = e.streamId.slice("channel-".length);
  const set = (assignments: string, ...values: unknown[]) =>
    writer.query(`UPDATE ${t.channels} SET ${assignments}, updated_at = $2 WHERE id = $1`, [
      id,
      e.recordedAt,
      ...values,
    ]);
  const row = (field: string, before: unknown, after: unknown, extra: Partial<HistoryRow> = {}) =>
    rowOf(e, { channel_id: id, gate: null, field, before, after, ...extra });
  switch (event.type) {
    case "ChannelCreated": {
      const d = event.data;
      await writer.query(
        `INSERT INTO ${t.channels} (id, agency_id, title, currency, form_of_payment, active_by_admin,
                credential_active, source_web, source_api, source_extension, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) ON CONFLICT (id) DO NOTHING`,
        [
          id,
          d.agency_id,
          d.title,
          d.currency,
          d.form_of_payment,
          d.active_by_admin ?? true,
          d.credential_active,
          d.sources.web,
          d.sources.api,
          d.sources.extension,
          e.recordedAt,
        ],
      );
      return [
        row(
          "created",
          null,
          { title: d.title, active_by_admin: d.active_by_admin ?? true },
          { agency_id: d.agency_id },
        ),
      ];
    }
    case "ChannelToggledByAdmin":
      await set("active_by_admin = $3", event.data.active);
      return [row("active_by_admin", !event.data.active, event.data.active)];
    case "ChannelToggledBySupervisor":
      await set("active_by_supervisor = $3", event.data.active);
      return [row("active_by_supervisor", !event.data.active, event.data.active)];
    case "ChannelCredentialChecked":
      await set("credential_active = $3", event.data.active);
      return [row("active_credential", event.data.previous ?? null, event.data.active)];
    case "ChannelCredentialsReplaced":
      await set("credential_set = true");
      return [row("credential", null, "replaced")];
    case "ChannelSourceToggled":
      await set(`source_${event.data.source} = $3`, event.data.active);
      return [row(event.data.source, !event.data.active, event.data.active)];
    case "ChannelCompanyToggled":
      await set(
        event.data.active
          ? "companies_off = array_remove(companies_off, $3)"
          : "companies_off = array_append(array_remove(companies_off, $3), $3)",
        event.data.company_id,
      );
      return [
        row("active_by_company", !event.data.active, event.data.active, {
          company_id: event.data.company_id,
        }),
      ];
    case "ChannelFormOfPaymentSet":
      await set("form_of_payment = $3", event.data.form_of_payment);
      return [row("form_of_payment", event.data.previous, event.data.form_of_payment)];
    case "ChannelTicketingCardSet":
      await set("ticketing_card_id = $3", event.data.credit_card_id);
      return [row("ticketing_credit_card_id", event.data.previous, event.data.credit_card_id)];
    case "ChannelNegoCodeSet":
      await set("nego_code = $3", event.data.code);
      return [row("nego_code", event.data.previous, event.data.code)];
    case "ChannelResidentFaresCodeSet":
      await set("resident_fares_code = $3", event.data.code);
      return [row("resident_fares_code", event.data.previous, event.data.code)];
    case "ChannelCardAttached":
      await set("card_ids = array_append(array_remove(card_ids, $3), $3)", event.data.credit_card_id);
      return [row("credit_cards", null, event.data.credit_card_id)];
    case "ChannelCardDetached":
      await set("card_ids = array_remove(card_ids, $3)", event.data.credit_card_id);
      return [row("credit_cards", event.data.credit_card_id, null)];
    case "ChannelDeleted":
      await set("deleted = true");
      return [row("deleted", false, true)];
    default:
      return unhandledEvent(event);
  }
}
