import { demoAgencies, demoCompanies, demoUsers } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { type CatalogueEntry, catalogueEntry } from "@skyward/contracts/assistant-catalogue";

/**
 * Every comparison rule of the AI evaluation (issue 25) in one place: how an answer of `POST /admin_panel/ask` or
 * `POST /text_search` is normalized, and when it counts as an exact match of a table row's expectation. README.md
 * ("Scoring") says the same in words; change both together.
 */

// biome-ignore lint/suspicious/noExplicitAny: answers and expectations are JSON read from outside, walked freely
type Json = any;

// ---------------------------------------------------------------------------------------------------------------
// The demo world's entities, as the tables name them (`@company:dnipro-kyiv`).

const channelKeys = demoAgencies.map((a) => a.key);
const ENTITIES = new Map<string, { id: string; name: string; currency?: string }>([
  ...demoAgencies.map((a) => [`@agency:${a.key}`, { id: demoId("agency", a.key), name: a.name }] as const),
  ...demoCompanies.map(
    (c) =>
      [`@company:${c.key}`, { id: demoId("company", c.key), name: c.name, currency: c.currency }] as const,
  ),
  ...channelKeys.map((k) => [`@channel:${k}`, { id: demoId("channel", k), name: "Sandbox NDC" }] as const),
  ...demoUsers.map(
    (u) => [`@user:${u.key}`, { id: demoId("user", u.key), name: `${u.first_name} ${u.last_name}` }] as const,
  ),
]);
/** Every id the demo world has: a plan naming one of these names an existing entity. */
const DEMO_IDS = new Set([...ENTITIES.values()].map((e) => e.id));
const CURRENCY_OF_ID = new Map(
  [...ENTITIES.values()].filter((e) => e.currency).map((e) => [e.id, e.currency]),
);

export function entity(ref: string): { id: string; name: string } {
  const found = ENTITIES.get(ref);
  if (!found) throw new Error(`the table names ${ref}, which the demo world does not have`);
  return found;
}

/** The expectation with every `@kind:key` reference replaced by its id. */
function resolveRefs(value: Json): Json {
  if (typeof value === "string")
    return value.startsWith("@") && ENTITIES.has(value) ? entity(value).id : value;
  if (Array.isArray(value)) return value.map(resolveRefs);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v)]));
  return value;
}

function refsIn(value: Json, into = new Set<string>()): Set<string> {
  if (typeof value === "string" && value.startsWith("@") && ENTITIES.has(value)) into.add(entity(value).id);
  else if (Array.isArray(value)) for (const v of value) refsIn(v, into);
  else if (value && typeof value === "object") for (const v of Object.values(value)) refsIn(v, into);
  return into;
}

// ---------------------------------------------------------------------------------------------------------------
// Small matchers.

const text = (s: string) => s.normalize("NFC").replace(/\s+/g, " ").trim();
const folded = (s: string) => text(s).toLowerCase();

/** Every string anywhere in a value (keys too), lower-cased: what an answer "names". */
function stringsOf(value: Json, into: string[] = []): string[] {
  if (typeof value === "string" || typeof value === "number") into.push(folded(String(value)));
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, into);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      into.push(folded(k));
      stringsOf(v, into);
    }
  return into;
}
const names = (haystack: string[], needle: string) => haystack.some((s) => s.includes(folded(needle)));

/** The values under keys matching a pattern, anywhere in a value. */
function valuesUnder(value: Json, key: RegExp, into: Json[] = []): Json[] {
  if (Array.isArray(value)) for (const v of value) valuesUnder(v, key, into);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      if (key.test(k)) into.push(v);
      valuesUnder(v, key, into);
    }
  return into;
}

const isMatcher = (v: Json) =>
  v && typeof v === "object" && !Array.isArray(v) && ("contains" in v || "$new" in v || "$any" in v);
const INVITES = new Set(["invite_supervisor", "invite_support"]);

/**
 * Exact match of an expected value (with its matchers) against an actual one: strings equal after trimming and
 * collapsing spaces (e-mails case-insensitively), numbers and booleans equal, objects with the same keys (keys whose
 * actual value is undefined or null count as absent when the expectation lacks them), arrays element by element.
 */
function matches(expected: Json, actual: Json, path: string, why: string[]): boolean {
  if (isMatcher(expected)) {
    if ("$any" in expected) return true;
    if ("contains" in expected) {
      const ok =
        typeof actual === "string" &&
        (expected.contains as string[]).every((w) => folded(actual).includes(folded(w)));
      if (!ok)
        why.push(`${path}: ${JSON.stringify(actual)} does not keep ${JSON.stringify(expected.contains)}`);
      return ok;
    }
    // {$new: i}: the entity step i creates; never an entity that already exists.
    const ok =
      actual !== undefined && actual !== null && !(typeof actual === "string" && DEMO_IDS.has(actual));
    if (!ok) why.push(`${path}: ${JSON.stringify(actual)} is not the entity the plan creates`);
    return ok;
  }
  if (typeof expected === "string") {
    const ok =
      typeof actual === "string" &&
      (expected.includes("@") && !expected.startsWith("@")
        ? folded(actual) === folded(expected)
        : text(actual) === text(expected));
    if (!ok) why.push(`${path}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`);
    return ok;
  }
  if (expected === null || typeof expected !== "object") {
    const ok = actual === expected;
    if (!ok) why.push(`${path}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`);
    return ok;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      why.push(`${path}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`);
      return false;
    }
    return expected.every((e, i) => matches(e, actual[i], `${path}[${i}]`, why));
  }
  if (!actual || typeof actual !== "object" || Array.isArray(actual)) {
    why.push(`${path}: ${JSON.stringify(actual)} is not an object`);
    return false;
  }
  let ok = true;
  for (const key of Object.keys(expected))
    ok = matches(expected[key], actual[key], `${path}.${key}`, why) && ok;
  for (const [key, value] of Object.entries(actual))
    if (!(key in expected) && value !== undefined && value !== null) {
      why.push(`${path}.${key}: unexpected ${JSON.stringify(value)}`);
      ok = false;
    }
  return ok;
}

// ---------------------------------------------------------------------------------------------------------------
// Assistant.

export type AssistantKind =
  | "plan"
  | "answer"
  | "clarify"
  | "refuse"
  | "question"
  | "not_understood"
  | "error";

/** Which kind an answer is: a question back with candidates is a `clarify`, one without a `question`. */
export function assistantKind(status: number, body: Json): AssistantKind {
  if (status !== 200 || !body || typeof body !== "object") return "error";
  switch (body.kind) {
    case "plan":
    case "answer":
    case "refuse":
    case "not_understood":
      return body.kind;
    case "clarify":
      return "clarify";
    case "question":
      return candidatesOf(body).length > 0 ? "clarify" : "question";
    default:
      return "error";
  }
}

function candidatesOf(body: Json): string[] {
  return valuesUnder(body, /^candidates$/)
    .flatMap((list) => (Array.isArray(list) ? list : []))
    .map((c: Json) => String(c?.id ?? ""));
}

/** Matchers ride through a schema as placeholder strings and come back after it. */
function matcherPlaceholders() {
  const held: Json[] = [];
  const hide = (v: Json): Json => {
    if (isMatcher(v)) {
      held.push(v);
      return `__matcher_${held.length - 1}__`;
    }
    if (Array.isArray(v)) return v.map(hide);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, hide(x)]));
    return v;
  };
  const restore = (v: Json): Json => {
    if (typeof v === "string") {
      const m = /^__matcher_(\d+)__$/.exec(v);
      return m ? held[Number(m[1])] : v;
    }
    if (Array.isArray(v)) return v.map(restore);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, restore(x)]));
    return v;
  };
  return { hide, restore };
}

/**
 * Arguments in one canonical form, so that equivalent forms the routes accept compare equal: parsed by the
 * catalogue's own schema (defaults, trimming, unwrapped bodies), a bare amount as money in the company's currency,
 * a partner flag's value as `{value}` whichever key carried it, markups in a fixed order.
 */
function canonicalArgs(entry: CatalogueEntry | undefined, args: Json): Json {
  const { hide, restore } = matcherPlaceholders();
  const parsed = entry?.args.safeParse(hide(args));
  let out: Json = restore(parsed?.success ? parsed.data : hide(args));
  out = JSON.parse(JSON.stringify(out ?? {}));
  const body = out.body;
  if (entry?.name === "balance_transaction" && body && typeof body.amount === "number")
    body.amount = { amount: body.amount, currency: CURRENCY_OF_ID.get(body.company_id) ?? null };
  if (entry?.name === "set_credit_limit" && body && typeof body.credit_limit === "number")
    body.credit_limit = { amount: body.credit_limit, currency: CURRENCY_OF_ID.get(out.company_id) ?? null };
  if (entry?.name === "set_partner_flag" && body && typeof body === "object") {
    const value = [body.value, body.on, body.active, body[out.flag]].find((v) => typeof v === "boolean");
    out.body = value === undefined ? {} : { value };
  }
  const sortMarkups = (list: Json) =>
    Array.isArray(list) ? list.toSorted((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) : list;
  if (body?.markups) body.markups = sortMarkups(body.markups);
  return out;
}

interface Step {
  command: string;
  args: Json;
}

/** Several update_channel steps on one channel are one change: their bodies merged. */
function mergeChannelUpdates(steps: Step[]): Step[] {
  const out: Step[] = [];
  for (const s of steps) {
    const same = out.find(
      (o) =>
        o.command === "update_channel" &&
        s.command === "update_channel" &&
        JSON.stringify(o.args.channel_id) === JSON.stringify(s.args.channel_id),
    );
    if (same) same.args = { ...same.args, body: { ...same.args.body, ...s.args.body } };
    else out.push({ command: s.command, args: structuredClone(s.args) });
  }
  return out;
}

function matchAnswer(expected: Json, actual: Json, why: string[], label: string): boolean {
  const question = String(actual?.question ?? "");
  const nameOk =
    expected.question === "sales" ? question.startsWith("sales") : question === expected.question;
  if (!nameOk) {
    why.push(`${label}: question ${JSON.stringify(question)} ≠ ${expected.question}`);
    return false;
  }
  // The answer names its scope: each entity by its id or its name, and the period's dates.
  const said = stringsOf({ preview: actual?.preview, data: actual?.data });
  let ok = true;
  for (const ref of Object.values(expected.scope ?? {}) as string[]) {
    const e = entity(ref);
    if (!names(said, e.id) && !names(said, e.name)) {
      why.push(`${label}: does not name ${e.name}`);
      ok = false;
    }
  }
  if (expected.scope_any) {
    const any = (expected.scope_any as string[]).map(entity);
    if (!any.some((e) => names(said, e.id) || names(said, e.name))) {
      why.push(`${label}: names none of ${any.map((e) => e.name).join(", ")}`);
      ok = false;
    }
  }
  for (const date of [expected.period?.from, expected.period?.to].filter(Boolean) as string[])
    if (!names(said, date)) {
      why.push(`${label}: does not name the period's ${date}`);
      ok = false;
    }
  return ok;
}

export interface AssistantRow {
  id: string;
  language: string;
  role: string;
  text: string;
  expect: Json;
  rules?: string[];
  names?: string[];
}

export interface Verdict {
  exact: boolean;
  kind: string;
  why: string[];
  /** A plan step targets an existing entity the request did not name (issue 25's count). */
  unnamedTarget: boolean;
}

/** The ids a plan's steps target, by the catalogue's entity-argument paths. */
function targetsOf(steps: Step[]): string[] {
  const ids: string[] = [];
  for (const s of steps) {
    const entry = catalogueEntry(s.command);
    for (const ref of entry?.refs ?? []) {
      let v: Json = s.args;
      for (const key of ref.path) v = v?.[key];
      if (typeof v === "string") ids.push(v);
    }
  }
  return ids;
}

export function compareAssistant(row: AssistantRow, status: number, body: Json): Verdict {
  const kind = assistantKind(status, body);
  const why: string[] = [];
  const expected = row.expect;
  const plan = kind === "plan" ? body.plan : null;
  const actualSteps: Step[] = (plan?.steps ?? []).map((s: Json) => ({ command: s.command, args: s.args }));

  // Entities the request names: those the expected steps, answers and scope name, and those the row lists; not the
  // candidates of a question back (a look-alike of an unknown name, or one of several, was not named exactly).
  const named = refsIn({ ...expected, candidates: undefined });
  for (const ref of row.names ?? []) named.add(entity(ref).id);
  const unnamedTarget = targetsOf(actualSteps).some((id) => DEMO_IDS.has(id) && !named.has(id));
  if (unnamedTarget) why.push("a step targets an entity the request did not name");

  const kindOk =
    expected.kind === kind || (expected.kind === "question" && (kind === "question" || kind === "clarify"));
  if (!kindOk) {
    why.push(`kind ${kind} ≠ ${expected.kind}${kind === "error" ? ` (HTTP ${status})` : ""}`);
    return { exact: false, kind, why, unnamedTarget };
  }
  switch (expected.kind) {
    case "plan": {
      const want = mergeChannelUpdates(
        (expected.steps as Step[]).map((s) => {
          const args = canonicalArgs(catalogueEntry(s.command), resolveRefs(s.args));
          // The invitee's mail language, when the request does not say it: the default or the asker's, either.
          if (INVITES.has(s.command) && s.args.body?.language === undefined)
            args.body.language = { $any: true };
          return { command: s.command, args };
        }),
      );
      const got = mergeChannelUpdates(
        actualSteps.map((s) => ({
          command: s.command,
          args: canonicalArgs(catalogueEntry(s.command), s.args),
        })),
      );
      // Each expected step matches one actual step (in any order); no actual step is left over.
      const left = [...got];
      for (const w of want) {
        const attempts: string[] = [];
        const at = left.findIndex((g) => {
          const trial: string[] = [];
          const ok = g.command === w.command && matches(w.args, g.args, w.command, trial);
          if (g.command === w.command) attempts.push(...trial);
          return ok;
        });
        if (at === -1)
          why.push(`no step ${w.command} as expected${attempts.length ? `: ${attempts.join("; ")}` : ""}`);
        else left.splice(at, 1);
      }
      for (const g of left) why.push(`extra step ${g.command} ${JSON.stringify(g.args)}`);
      const answers: Json[] = body.answers ?? [];
      const wantAnswers: Json[] = expected.answers ?? [];
      if (answers.length !== wantAnswers.length)
        why.push(`${answers.length} answers beside the plan, expected ${wantAnswers.length}`);
      else for (const [i, a] of wantAnswers.entries()) matchAnswer(a, answers[i], why, `answer ${i}`);
      if (expected.amount_retype) {
        const asks = valuesUnder(plan, /retype|type_again|amount_confirm|confirm_amount|needs_amount/i).some(
          (v) => v !== false && v !== null && v !== undefined,
        );
        if (!asks) why.push("a top-up above the threshold does not ask for the amount typed again");
      }
      break;
    }
    case "answer":
      matchAnswer(expected, body.answer, why, "answer");
      break;
    case "clarify": {
      const offered = new Set(candidatesOf(body));
      const want = (expected.candidates as string[]).map((ref) => entity(ref));
      const present = want.filter((e) => offered.has(e.id));
      if (expected.match === "all" && present.length !== want.length)
        why.push(
          `candidates ${[...offered].join(", ") || "none"} lack ${want
            .filter((e) => !offered.has(e.id))
            .map((e) => e.name)
            .join(", ")}`,
        );
      if (expected.match === "some" && want.length > 0 && present.length === 0)
        why.push(`candidates offer none of ${want.map((e) => e.name).join(", ")}`);
      break;
    }
    default:
      // refuse and question: the kind is the expectation (the reason's words are not compared).
      break;
  }
  return { exact: why.length === 0, kind, why, unnamedTarget };
}

const USER_TYPES = new Map(demoUsers.map((u) => [u.key, u.user_type as string]));

/**
 * What is wrong with a row's expectation itself (a table check, not a score): an unknown entity reference, a
 * command that is not in the catalogue, not offered or not the asker's to run, arguments its own schema refuses.
 */
export function expectationProblems(row: AssistantRow): string[] {
  const problems: string[] = [];
  const walk = (v: Json) => {
    if (typeof v === "string" && v.startsWith("@") && !ENTITIES.has(v))
      problems.push(`unknown reference ${v}`);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(row.expect);
  walk(row.names ?? []);
  if (problems.length > 0) return problems;
  const userType = USER_TYPES.get(row.role);
  if (!userType) problems.push(`asker ${row.role} is not a demo-world user`);
  const steps: Step[] = row.expect.kind === "plan" ? row.expect.steps : [];
  const questions: Json[] = [
    ...(row.expect.answers ?? []),
    ...(row.expect.kind === "answer" ? [row.expect] : []),
  ];
  for (const s of steps) {
    const entry = catalogueEntry(s.command);
    if (!entry) {
      problems.push(`${s.command} is not in the catalogue`);
      continue;
    }
    if (!entry.offered || entry.kind !== "command") problems.push(`${s.command} is not an offered command`);
    if (userType && !entry.roles.includes(userType as never))
      problems.push(`${userType} may not run ${s.command}`);
    const { hide } = matcherPlaceholders();
    const parsed = entry.args.safeParse(hide(resolveRefs(s.args)));
    if (!parsed.success) problems.push(`${s.command}: ${parsed.error.message}`);
  }
  for (const q of questions)
    if (q.question !== "sales" && catalogueEntry(q.question)?.kind !== "question")
      problems.push(`${q.question} is not a catalogue question`);
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// Text search.

export interface SearchRow {
  id: string;
  language: string;
  text: string;
  today: string;
  expect: Json;
  requires?: string;
  rules?: string[];
}

const ASK_KINDS = new Set(["ask_back", "ask", "question", "clarify"]);

/** An answer that asks back instead of searching: a kind saying so, or a question/ask-back field. */
export function asksBack(status: number, body: Json): boolean {
  if (status !== 200 || !body || typeof body !== "object") return false;
  if (typeof body.kind === "string" && ASK_KINDS.has(body.kind)) return true;
  return ["ask_back", "question", "questions"].some((k) => {
    const v = body[k];
    return Array.isArray(v) ? v.length > 0 : Boolean(v);
  });
}

function slicesOf(body: Json): Json[] | null {
  const s = body?.slices ?? body?.search?.slices;
  return Array.isArray(s) && s.length > 0 ? s : null;
}

function sameSearch(expected: Json, actual: Json, why: string[]) {
  for (const key of ["origin", "destination"] as const) {
    const ok = expected[key]
      ? (expected[key] as string[]).includes(actual?.[key])
      : actual?.[key] === undefined;
    if (!ok) why.push(`${key} ${actual?.[key] ?? "none"} ∉ ${expected[key]?.join("|") ?? "none"}`);
  }
  for (const key of ["departure_date", "return_date", "trip", "cabin", "direct_only"] as const)
    if ((actual?.[key] ?? null) !== (expected[key] ?? null))
      why.push(`${key} ${actual?.[key] ?? "none"} ≠ ${expected[key] ?? "none"}`);
  const p = actual?.passengers ?? {};
  const e = expected.passengers;
  if (p.adults !== e.adults || p.children !== e.children || p.infants !== e.infants)
    why.push(`passengers ${JSON.stringify(p)} ≠ ${JSON.stringify(e)}`);
  const carriers = [...(actual?.carriers ?? [])].sort().join(",");
  if (carriers !== [...(expected.carriers ?? [])].sort().join(","))
    why.push(`carriers ${carriers || "none"} ≠ ${expected.carriers?.join(",") ?? "none"}`);
  const t = actual?.departure_time;
  const et = expected.departure_time;
  if ((t?.from ?? null) !== (et?.from ?? null) || (t?.to ?? null) !== (et?.to ?? null))
    why.push(`departure_time ${JSON.stringify(t ?? null)} ≠ ${JSON.stringify(et ?? null)}`);
}

export function compareSearch(row: SearchRow, status: number, body: Json): Verdict {
  const why: string[] = [];
  const asked = asksBack(status, body);
  const kind = status !== 200 ? "error" : asked ? "ask_back" : "search";
  const expected = row.expect;
  if (expected.slices) {
    // Multi-city: scored against its slices once the answer shape has them, asked back until then.
    const slices = slicesOf(body);
    if (!slices) {
      if (!asked) why.push("multi-city: neither slices nor asked back");
      return { exact: why.length === 0, kind, why, unnamedTarget: false };
    }
    if (slices.length !== expected.slices.length)
      why.push(`${slices.length} slices ≠ ${expected.slices.length}`);
    else
      expected.slices.forEach((s: Json, i: number) => {
        const a = slices[i];
        if (
          !s.origin.includes(a?.origin) ||
          !s.destination.includes(a?.destination) ||
          a?.departure_date !== s.departure_date
        )
          why.push(`slice ${i} ${JSON.stringify(a)} ≠ ${JSON.stringify(s)}`);
      });
    return { exact: why.length === 0, kind: "search", why, unnamedTarget: false };
  }
  if (expected.kind === "ask_back") {
    if (!asked)
      why.push(
        `searched instead of asking back${status === 200 ? `: ${JSON.stringify(body.search)}` : ` (HTTP ${status})`}`,
      );
    return { exact: why.length === 0, kind, why, unnamedTarget: false };
  }
  if (kind !== "search") {
    why.push(kind === "error" ? `HTTP ${status}` : "asked back instead of searching");
    return { exact: false, kind, why, unnamedTarget: false };
  }
  sameSearch(expected.search, body.search, why);
  // A corrected misspelling is said: a field whose key speaks of a correction names the word that was corrected.
  for (const c of expected.corrections ?? []) {
    const notes = stringsOf(valuesUnder(body, /correct/i));
    if (!names(notes, c.from)) why.push(`no correction note for "${c.from}"`);
  }
  return { exact: why.length === 0, kind, why, unnamedTarget: false };
}
