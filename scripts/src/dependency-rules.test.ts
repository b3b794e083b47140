import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "@jest/globals";
import { importCircles, importGraph } from "./testing/import-graph.ts";

/**
 * The dependency rules (DESIGN.md section 1, STYLE.md) are Biome `noRestrictedImports` overrides in biome.json, run by
 * `npm run lint`. These probes write one import each into the real folders, lint them with the real config, and check
 * that each forbidden import is reported and each allowed one is not, so the rules cannot silently stop working.
 */

const root = fileURLToPath(new URL("../../", import.meta.url));
const biome = join(root, "node_modules", ".bin", "biome");

interface Probe {
  folder: string;
  specifier: string;
  forbidden: boolean;
  extension?: "ts" | "tsx" | "test.ts";
}

const forbidden = (folder: string, specifier: string, extension?: "tsx" | "test.ts"): Probe => ({
  folder,
  specifier,
  forbidden: true,
  ...(extension ? { extension } : {}),
});
const allowed = (folder: string, specifier: string, extension?: "tsx" | "test.ts"): Probe => ({
  folder,
  specifier,
  forbidden: false,
  ...(extension ? { extension } : {}),
});

const feature = "frontend/src/features/bookings/components";
const probes: Probe[] = [
  // contracts depends on zod only.
  allowed("contracts/src", "zod"),
  allowed("contracts/src", "./money.ts"),
  forbidden("contracts/src", "@skyward/infra/db"),
  forbidden("contracts/src", "../../infra/src/db.ts"),
  forbidden("contracts/src", "node:fs"),
  forbidden("contracts/src", "express"),
  // The OpenAPI modules by capability also import the contracts one folder up, and nothing further.
  allowed("contracts/src/openapi", "../money.ts"),
  allowed("contracts/src/openapi", "./shared.ts"),
  forbidden("contracts/src/openapi", "../../../infra/src/db.ts"),
  forbidden("contracts/src/openapi", "@skyward/infra/db"),
  forbidden("contracts/src/openapi", "node:fs"),
  // infra never imports a service.
  allowed("infra/src", "@skyward/contracts/money"),
  allowed("infra/src", "pg"),
  forbidden("infra/src", "@skyward/command-service/deps"),
  forbidden("infra/src", "../../projectors/src/index.ts"),
  // Services import only contracts and infra, never each other.
  allowed("command-service/src", "@skyward/contracts/money"),
  allowed("command-service/src", "@skyward/infra/db"),
  allowed("command-service/src", "./deps.ts"),
  forbidden("command-service/src", "@skyward/query-service/scope"),
  forbidden("command-service/src", "../../query-service/src/scope.ts"),
  forbidden("command-service/src", "@skyward/projectors/index"),
  forbidden("command-service/src", "@skyward/scripts/app"),
  allowed("query-service/src", "@skyward/infra/http/auth"),
  forbidden("query-service/src", "@skyward/command-service/deps"),
  forbidden("query-service/src/bookings", "../../../command-service/src/bookings/access.ts"),
  // Its tests start the real app through the scripts' test harness, and import nothing else of scripts or services.
  forbidden("query-service/src", "@skyward/scripts/testing/roles"),
  allowed("query-service/src", "@skyward/scripts/testing/roles", "test.ts"),
  forbidden("query-service/src", "@skyward/scripts/app", "test.ts"),
  forbidden("query-service/src", "@skyward/command-service/deps", "test.ts"),
  allowed("projectors/src", "@skyward/infra/projections/projection"),
  forbidden("projectors/src", "@skyward/query-service/scope"),
  forbidden("projectors/src", "../../command-service/src/deps.ts"),
  // The frontend imports only contracts of the workspaces, and no Node code.
  allowed("frontend/src/lib", "@skyward/contracts/bookings"),
  allowed("frontend/src/lib", "react"),
  forbidden("frontend/src/lib", "@skyward/infra/http/context"),
  forbidden("frontend/src/lib", "../../../infra/src/db.ts"),
  forbidden("frontend/src/lib", "node:fs"),
  forbidden("frontend/src/lib", "pg"),
  // Features do not import each other.
  allowed(feature, "../../../lib/query-keys.ts", "tsx"),
  allowed(feature, "../../../components/ui/icons.tsx", "tsx"),
  allowed(feature, "../api/booking-commands.ts", "tsx"),
  forbidden(feature, "../../search/api/search-offers.ts", "tsx"),
  forbidden(feature, "../../../features/search/api/search-offers.ts", "tsx"),
  forbidden(feature, "../../account", "tsx"),
];

const written: string[] = [];
afterAll(async () => {
  await Promise.all(written.map((file) => rm(file, { force: true })));
});

interface Diagnostic {
  category: string;
  location: { path: string };
}

/** Lints the files with the repository's biome.json; Biome exits non-zero when it reports an error. */
async function lint(files: string[]): Promise<Diagnostic[]> {
  const args = ["lint", "--reporter=json", ...files.map((f) => relative(root, f))];
  const output = await promisify(execFile)(biome, args, { cwd: root, maxBuffer: 16 << 20 }).then(
    (done) => done.stdout,
    (failed: { stdout?: string }) => failed.stdout ?? "",
  );
  const report = JSON.parse(output) as { diagnostics: Diagnostic[] };
  return report.diagnostics;
}

describe("the dependency rules", () => {
  it("when a file imports across a forbidden boundary, then the lint reports it; allowed imports pass", async () => {
    const files = probes.map((probe, index) =>
      join(root, probe.folder, `lint-probe-${process.pid}-${index}.${probe.extension ?? "ts"}`),
    );
    for (const [index, probe] of probes.entries()) {
      const file = files[index] as string;
      written.push(file);
      await writeFile(file, `import "${probe.specifier}";\n`);
    }
    const diagnostics = await lint(files);
    const restricted = new Set(
      diagnostics
        .filter((d) => d.category === "lint/style/noRestrictedImports")
        .map((d) => join(root, d.location.path)),
    );
    const wrong = probes
      .map((probe, index) => ({ probe, reported: restricted.has(files[index] as string) }))
      .filter(({ probe, reported }) => probe.forbidden !== reported)
      .map(
        ({ probe, reported }) =>
          `${probe.folder}: import "${probe.specifier}" ${reported ? "reported, but allowed" : "not reported"}`,
      );
    expect(wrong).toEqual([]);
    expect(restricted.size).toBe(probes.filter((p) => p.forbidden).length);
  });
});

describe("import circles", () => {
  it("when the workspaces are parsed, then no module imports one that imports it back (type-only and lazy imports count)", () => {
    expect(importCircles(importGraph(root))).toEqual([]);
  });

  it("when two modules come to import each other, even by `import type`, then the circle is reported", async () => {
    const folder = join(root, "command-service", "src");
    const [a, b] = [`circle-probe-${process.pid}-a.ts`, `circle-probe-${process.pid}-b.ts`];
    written.push(join(folder, a), join(folder, b));
    await writeFile(join(folder, a), `import type { B } from "./${b}";\nexport type A = B[];\n`);
    await writeFile(join(folder, b), `import type { A } from "./${a}";\nexport type B = A | string;\n`);
    expect(importCircles(importGraph(root))).toEqual([
      `2 modules, as command-service/src/${a} → (type) command-service/src/${b} → (type) command-service/src/${a}`,
    ]);
  });
});

/**
 * What a command may read (README, "Design: what a command may read"): command-service decides on event-sourced
 * state. A read model may lag its events, so each file that reads one says here which tables and why the read
 * cannot let a lagging row grant access or move money. A new read of a read model fails this test until it is listed.
 */
const READ_MODEL_READS: Record<string, { tables: string[]; why: string }> = {
  "agent-notifications/mails.ts": {
    tables: ["notifications", "users"],
    why: "a work list: the notifications to mail, each queued once (app.notification_mails), and the recipient's address and language; it decides nothing",
  },
  "ancillaries/confirm-emds.ts": {
    tables: ["bookings"],
    why: "a work list: the confirmation job folds each booking's stream before it acts",
  },
  "assistant/agents.ts": {
    tables: ["companies"],
    why: "the agent's own companies' names, only to say which command an agent's request was refused; nothing is planned or written",
  },
  "assistant/answers.ts": {
    tables: [
      "agencies",
      "bookings",
      "channel_history",
      "channels",
      "companies",
      "company_balances",
      "sales",
      "users",
    ],
    why: "answers to questions, which change nothing",
  },
  "assistant/directory.ts": {
    tables: ["agencies", "channels", "companies", "users"],
    why: "names to resolve a request against; the planned command checks the caller and decides on its streams",
  },
  "assistant/preview.ts": {
    tables: ["agencies", "channels", "companies", "company_balances", "gates"],
    why: "a preview of a plan; each step then runs as the command itself, through the same routes",
  },
  "audit/time-travel.ts": {
    tables: ["companies"],
    why: "a read of history; a company's partner never changes, so a lagging row can only refuse, never widen",
  },
  "bookings/reconcile.ts": {
    tables: ["bookings"],
    why: "a work list: each stale operation is decided on its booking's stream",
  },
  "bookings/scheduler.ts": {
    tables: ["bookings"],
    why: "a work list: expiry and supplier confirmation fold each booking's stream before they act",
  },
  "bookings/commands/schedule-change.ts": {
    tables: ["bookings"],
    why: "a work list: the issued bookings the polling job asks the airline about; each change is decided on the booking's stream and recorded once per change id",
  },
  "directory/administration.ts": {
    tables: ["agencies", "bookings", "channels", "companies", "users"],
    why: "name clashes (no access or money) and the answer's people and channels; open bookings are counted only once the bookings read model has caught up (caught-up.ts)",
  },
  "directory/commands/disconnect-agent.ts": {
    tables: ["agent_company_relationships", "companies"],
    why: "finds the agent and company a relationship id names; the decision is made on the agent's stream",
  },
  "directory/commands/duplicate-agency.ts": {
    tables: ["agencies", "channels"],
    why: "which channels a copy takes, listed once the channels read model has caught up with the log (caught-up.ts); each one's settings are folded from its stream (configuration, switched off; no access or money)",
  },
  "directory/commands/register-company.ts": {
    tables: ["channels"],
    why: "a default currency the client could have named itself",
  },
  "invoices/numbering.ts": {
    tables: ["invoices", "sales"],
    why: "a work list: the sales lines without a document yet; the number itself is the position in the agency's invoice stream, so a lagging read model delays a number and never skips or repeats one",
  },
  "invoices/statement-mails.ts": {
    tables: ["agencies", "companies"],
    why: "a work list: the companies with a billing contact to mail the month's statement to, each send recorded once per company and month",
  },
  "itinerary/compose.ts": {
    tables: ["companies", "users"],
    why: "display data printed in the mail (the agency's and agent's names and contacts); it decides nothing",
  },
  "itinerary/itinerary.ts": {
    tables: ["bookings", "itinerary_mails", "users"],
    why: "work lists of the mail sweep (bookings newly issued, sends not yet queued) and the agent's language as the mail's default; access is checked on the booking's stream",
  },
  "offers/selling-context.ts": {
    tables: ["channels"],
    why: "a default channel; the channel's, partner's and gates' streams then decide, guarded at the append",
  },
  "sales/report-job.ts": {
    tables: ["sales_reports"],
    why: "stores the report a job generated: a read model of its own, not a decision",
  },
  "ticketing/commands/create-channel.ts": {
    tables: ["companies"],
    why: "a default currency for the new channel",
  },
  "ticketing/commands/replace-credentials.ts": {
    tables: ["companies"],
    why: "the answer's list of companies, read after the command",
  },
  "travellers/routes.ts": {
    tables: ["companies", "travellers"],
    why: "the company a traveller is kept in, for its agency (which never changes) in the scope check, and the likely duplicate offered instead of a second record (advice, not a guarantee); a company deleted a moment ago may still take a traveller until the projection catches up, which moves no money",
  },
  "watchdog/schedule-change-mails.ts": {
    tables: ["bookings", "users"],
    why: "work lists of the mails to send (the traveller's once per change, the agent's reminder) and the agent's address and language; each send is recorded once, and nothing is decided on money",
  },
  "watchdog/watchdog.ts": {
    tables: ["bookings", "time_limit_notices", "users"],
    why: "a work list and mail addresses; each reminder or cancellation is decided on the booking's stream",
  },
};

/** The read-model tables a source file names in SQL (`FROM read.x`, `JOIN read.x`, `INTO read.x`, ...). */
function readModelTables(text: string): string[] {
  const tables = new Set<string>();
  for (const match of text.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+read\.([a-z_]+)/g))
    tables.add(match[1] as string);
  return [...tables].sort();
}

describe("what a command may read", () => {
  it("when a command-service file reads a read model, then it is listed with the tables it reads and why (and nothing listed is stale)", () => {
    const folder = join(root, "command-service", "src");
    const found: Record<string, string[]> = {};
    for (const file of readdirSync(folder, { recursive: true, encoding: "utf8" })) {
      if (
        !file.endsWith(".ts") ||
        file.endsWith(".test.ts") ||
        file.includes("lint-probe") ||
        file.includes("circle-probe")
      )
        continue;
      const tables = readModelTables(readFileSync(join(folder, file), "utf8"));
      if (tables.length > 0) found[file.split(sep).join("/")] = tables;
    }
    const listed = Object.fromEntries(
      Object.entries(READ_MODEL_READS).map(([file, { tables }]) => [file, [...tables].sort()]),
    );
    expect(found).toEqual(listed);
    for (const { why } of Object.values(READ_MODEL_READS)) expect(why.length).toBeGreaterThan(20);
  });

  it("when a decision reads a read model in SQL, then the scan finds the table, and a read of event-sourced state is not counted", () => {
    expect(readModelTables('pool.query("SELECT shared_bookings FROM read.companies WHERE id = $1")')).toEqual(
      ["companies"],
    );
    expect(
      readModelTables("`SELECT c.id FROM read.companies c\n JOIN read.company_balances b ON true`"),
    ).toEqual(["companies", "company_balances"]);
    expect(
      readModelTables("read.map((r) => r.id); store.fold(companyStream(id), evolveCompany, noCompany)"),
    ).toEqual([]);
  });
});

/**
 * Statements with an optional filter written as `$n IS NULL OR …`: a prepared statement's generic plan can use no
 * index for it (Where, infra/src/db.ts; list-plans.test.ts). Listed here with why each may stay.
 */
const OPTIONAL_FILTERS: Record<string, string> = {
  "infra/src/event-store/event-store.ts": "in the select list (which events carry their data), not a filter",
  "command-service/src/notifications/dev-outbox.ts":
    "the development outbox's own small table, never in production",
};

describe("optional filters", () => {
  it("when a statement filters by a parameter that may be null, then it is built with Where instead (or listed with why)", () => {
    const found: string[] = [];
    for (const workspace of ["command-service", "query-service", "projectors", "infra"]) {
      const folder = join(root, workspace, "src");
      for (const file of readdirSync(folder, { recursive: true, encoding: "utf8" })) {
        if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
        if (/\$\d+(::[a-z0-9_]+(\[\])?)? IS NULL OR/i.test(readFileSync(join(folder, file), "utf8")))
          found.push(`${workspace}/src/${file.split(sep).join("/")}`);
      }
    }
    expect(found.sort()).toEqual(Object.keys(OPTIONAL_FILTERS).sort());
  });
});
