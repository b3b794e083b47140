import { execFile } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
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
