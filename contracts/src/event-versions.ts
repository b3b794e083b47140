/**
 * Event versions and the upcasters from every older shape (README, "Changing an event").
 *
 * Each event type has a version: 1 unless the table below names more. A stored event records the version it was
 * written at in its metadata (`schema_version`, stamped by the event store's append for a type past version 1); an
 * event with none is version 1. On the store's read path `upcastEvent` takes the data through each step from the
 * stored version to the current one, so a fold, a projector and a time-travel read see the current shape only.
 *
 * A step fills a field its version added and leaves a field already there as it is: events written by the code of
 * a newer version before versions were stamped (they carry none) read the same. A step never renames a field nor
 * changes its meaning: a new meaning is a new field (or a new event type).
 */

type Data = Record<string, unknown>;

interface Upcaster {
  /** The version it reads; it answers the next one. */
  from: number;
  /** What changed, and the commit that changed it. */
  change: string;
  up: (data: Data) => Data;
}

/** Fills one field that a version added, with what an event written before it means. */
const adds =
  (field: string, value: (data: Data) => unknown) =>
  (data: Data): Data =>
    field in data ? data : { ...data, [field]: value(data) };

const both =
  (...steps: ((data: Data) => Data)[]) =>
  (data: Data): Data =>
    steps.reduce((d, step) => step(d), data);

const OPERATION_IDS = "23e54f9: supplier operations have ids; an operation before them reads as `legacy`";
/** An operation before ids: nothing can be in flight under it. */
const operationId = adds("operation_id", () => "legacy");
/**
 * How a claim is paid. A claim that charged the balance was paid by the balance; any other (a card, a demo booking,
 * nothing to pay) is not known, and reads as null.
 */
const PAID_BY =
  "d914050: a paying claim records how it is paid; one that charged the balance was paid by it, else null";
const paidBy = adds("paid_by", (data) => (data.charged ? { method: "balance" } : null));
/** A failure before codes and credits: a supplier error that gave nothing back. */
const failure = both(
  operationId,
  adds("code", () => "supplier_error"),
  adds("credited", () => null),
);

/**
 * A version whose new field is optional by meaning: absent says the event does not know it, which is what every
 * event of the version before meant. Such an event reads as it is; its readers say what absent means.
 */
const unchanged = (data: Data): Data => data;

/** Every shape change of every event type, oldest first, one step per version. */
export const UPCASTERS: Readonly<Record<string, readonly Upcaster[]>> = {
  TicketingStarted: [
    { from: 1, change: OPERATION_IDS, up: operationId },
    { from: 2, change: PAID_BY, up: paidBy },
  ],
  TicketsIssued: [{ from: 1, change: OPERATION_IDS, up: operationId }],
  TicketingFailed: [
    { from: 1, change: `${OPERATION_IDS}; a failure has a code and what it credited`, up: failure },
  ],
  BookingVoided: [{ from: 1, change: OPERATION_IDS, up: operationId }],
  BookingCancelled: [
    {
      from: 1,
      change: "23e54f9: a cancel may be an operation; one before them names none (null)",
      up: adds("operation_id", () => null),
    },
  ],
  ExchangeStarted: [{ from: 1, change: PAID_BY, up: paidBy }],
  FlightsChangeRequested: [
    {
      from: 1,
      change:
        "issue 23: a change request may name the one slice it changes; one before it changed the whole journey (null)",
      up: adds("slice", () => null),
    },
  ],
  AncillariesStarted: [{ from: 1, change: PAID_BY, up: paidBy }],
  RefundQuoted: [
    {
      from: 1,
      change:
        "issue 23: the airline's quote says each multi-city slice's part under its own rule; one before it had one rule throughout (no slices)",
      up: (data) => {
        const quote = data.supplier_quote;
        if (!quote || typeof quote !== "object" || "slices" in quote) return data;
        return { ...data, supplier_quote: { ...quote, slices: [] } };
      },
    },
  ],
  ReshopOffersPriced: [
    {
      from: 1,
      change:
        "34bc079: each exchange offer may keep its new flights and what its fare gives up; absent, the offer was priced before they were kept",
      up: unchanged,
    },
  ],
  BalanceCharged: [
    {
      from: 1,
      change:
        "595f01e: a charge may name the supplier operation that moved it; absent, the balance history takes it from the booking event of the same append",
      up: unchanged,
    },
  ],
  BalanceCredited: [
    {
      from: 1,
      change:
        "595f01e: a credit may name the supplier operation that moved it; absent, the balance history takes it from the booking event of the same append",
      up: unchanged,
    },
  ],
  ChannelCredentialChecked: [
    {
      from: 1,
      change:
        "03ac71d: a credential check may say whether the channel was active before; absent, the history shows none",
      up: unchanged,
    },
  ],
};

/** The version an event of `type` is written at today. */
export function currentVersion(type: string): number {
  return 1 + (UPCASTERS[type]?.length ?? 0);
}

/** The version a stored event was written at: its metadata's `schema_version`, 1 when it has none. */
export function storedVersion(metadata: unknown): number {
  const version = (metadata as { schema_version?: unknown } | null | undefined)?.schema_version;
  return typeof version === "number" && Number.isInteger(version) && version >= 1 ? version : 1;
}

/**
 * A stored event's data as the current version of its type: each step from its stored version on. Data that is not
 * an object (a feed read without it) comes back as it is; so does an event already current.
 */
export function upcastEvent(type: string, data: unknown, version = 1): unknown {
  const steps = UPCASTERS[type];
  if (!steps || typeof data !== "object" || data === null || Array.isArray(data)) return data;
  let current = data as Data;
  for (const step of steps) if (step.from >= version) current = step.up(current);
  return current;
}

/** Stamps the version an event is written at into its metadata, for a type past version 1. */
export function stampVersion<M extends object>(
  type: string,
  metadata: M,
): M | (M & { schema_version: number }) {
  const version = currentVersion(type);
  return version > 1 ? { ...metadata, schema_version: version } : metadata;
}
