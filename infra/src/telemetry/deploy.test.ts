// The dashboard and alert rules in infra/deploy (issue 30): they name only metrics this registry serves, cover every
// family, and pass promtool's checks and rule unit tests when promtool is installed (Debian package `prometheus`).
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "@jest/globals";
import { parse } from "yaml";
import { registry } from "./metrics.ts";

const deploy = fileURLToPath(new URL("../../deploy/", import.meta.url));
const read = (file: string) => readFileSync(join(deploy, file), "utf8");

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const rules = (
  parse(read("prometheus-alerts.yml")) as { groups: { name: string; rules: Rule[] }[] }
).groups.flatMap((g) => g.rules);
const dashboard = JSON.parse(read("grafana-dashboard.json")) as {
  panels: {
    type: string;
    title: string;
    targets?: { expr: string }[];
    gridPos: { x: number; y: number; w: number; h: number };
  }[];
};

/** The metric families this process's registry serves (histograms also as _bucket, _count and _sum). */
async function served(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const m of await registry.getMetricsAsJSON()) {
    names.add(m.name);
    if (String(m.type) === "histogram")
      for (const s of ["_bucket", "_count", "_sum"]) names.add(`${m.name}${s}`);
  }
  return names;
}
const namedIn = (expr: string) => [...expr.matchAll(/\bskyward_[a-z_]+\b/g)].map((m) => m[0]);

const promtool = spawnSync("promtool", ["--version"]).status === 0;

describe("alert rules", () => {
  it("wake someone for projector lag over a minute, supplier errors, an operation open over five minutes, the database, /ready", () => {
    const byName = new Map(rules.map((r) => [r.alert, r]));
    expect(byName.get("SkywardProjectorLagging")?.expr).toMatch(/skyward_projection_lag_seconds.*> 60/);
    expect(byName.get("SkywardSupplierErrors")?.expr).toContain('outcome=~"error|timeout"');
    expect(byName.get("SkywardSupplierOperationOpen")?.expr).toMatch(
      /skyward_supplier_operation_oldest_age_seconds.*> 300/,
    );
    expect(byName.get("SkywardDatabaseUnreachable")?.expr).toContain("skyward_db_up");
    expect(byName.get("SkywardNotReady")?.expr).toContain('probe_success{job="skyward-ready"}');
    for (const rule of rules) {
      expect(rule.labels?.severity).toMatch(/^(page|ticket)$/);
      expect(rule.annotations?.summary).toBeTruthy();
      expect(rule.for).toMatch(/^\d+m$/);
    }
  });

  it("name only metrics the process serves", async () => {
    const names = await served();
    const used = rules.flatMap((r) => namedIn(r.expr));
    expect(used.length).toBeGreaterThan(5);
    for (const name of used) expect([name, names.has(name)]).toEqual([name, true]);
  });

  (promtool ? it : it.skip)(
    "pass promtool check rules and its rule unit tests, and the scrape config checks",
    () => {
      expect(
        execFileSync("promtool", ["check", "rules", join(deploy, "prometheus-alerts.yml")]).toString(),
      ).toContain("SUCCESS");
      expect(
        execFileSync("promtool", ["test", "rules", join(deploy, "prometheus-alerts.test.yml")]).toString(),
      ).toContain("SUCCESS");
      // The scrape config names a token file an operator provides: checked beside a token of its own.
      const dir = mkdtempSync(join(tmpdir(), "skyward-prometheus-"));
      const token = join(dir, "token");
      writeFileSync(token, "0123456789abcdef-token");
      copyFileSync(join(deploy, "prometheus-alerts.yml"), join(dir, "prometheus-alerts.yml"));
      writeFileSync(
        join(dir, "prometheus.yml"),
        read("prometheus.yml").replace("/etc/prometheus/skyward-metrics-token", token),
      );
      expect(execFileSync("promtool", ["check", "config", join(dir, "prometheus.yml")]).toString()).toContain(
        "SUCCESS",
      );
    },
  );
});

describe("the Grafana dashboard", () => {
  const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));

  it("shows every family: HTTP, commands, appends, projectors, jobs, supplier, pool, sign-in and rate limits", () => {
    const families = new Set(exprs.flatMap(namedIn));
    for (const family of [
      "skyward_http_request_duration_seconds_bucket",
      "skyward_commands_total",
      "skyward_event_store_append_duration_seconds_count",
      "skyward_event_store_append_events_sum",
      "skyward_event_store_version_conflicts_total",
      "skyward_projection_position",
      "skyward_projection_lag_events",
      "skyward_projection_lag_seconds",
      "skyward_projection_failures_total",
      "skyward_job_queue_depth",
      "skyward_job_runs_total",
      "skyward_supplier_call_duration_seconds_count",
      "skyward_supplier_operations_open",
      "skyward_supplier_operation_oldest_age_seconds",
      "skyward_db_pool_connections_in_use",
      "skyward_db_pool_waiting",
      "skyward_sign_in_failures_total",
      "skyward_rate_limit_refusals_total",
    ])
      expect([family, families.has(family)]).toEqual([family, true]);
  });

  it("names only metrics the process serves, in panels that do not overlap", async () => {
    const names = await served();
    for (const name of exprs.flatMap(namedIn)) expect([name, names.has(name)]).toEqual([name, true]);
    const cells = new Set<string>();
    for (const panel of dashboard.panels)
      for (let x = panel.gridPos.x; x < panel.gridPos.x + panel.gridPos.w; x++)
        for (let y = panel.gridPos.y; y < panel.gridPos.y + panel.gridPos.h; y++) {
          expect(cells.has(`${x},${y}`)).toBe(false);
          cells.add(`${x},${y}`);
        }
  });
});
