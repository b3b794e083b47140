import { register } from "node:module";
import os from "node:os";
import { readConfig } from "@skyward/infra/config";
import { startTracing } from "@skyward/infra/telemetry/tracing";
import type { Role } from "./app.ts";

/**
 * One production process: `ROLES=command npm run serve`, `ROLES=query`, `ROLES=projectors`, `ROLES=frontend`
 * (comma-separated to combine). Needs DATABASE_URL and SESSION_SECRET; see infra/deploy/nginx.conf for the proxy.
 * It runs as production unless NODE_ENV says otherwise.
 */
process.env.NODE_ENV ??= "production";
const config = readConfig();
if (!config.DATABASE_URL) {
  console.error("DATABASE_URL is required (the embedded server is for `npm start` only)");
  process.exit(2);
}
// Traces (issue 30): the instrumentations hook express, http and pg as they load, so tracing starts before the app is
// imported; the loader hook lets them see modules imported as ES modules too.
if (config.OTEL_EXPORTER_OTLP_ENDPOINT) {
  register("@opentelemetry/instrumentation/hook.mjs", import.meta.url);
  await startTracing(config.OTEL_EXPORTER_OTLP_ENDPOINT, `skyward-${process.env.ROLES ?? "all"}`);
}
const { ROLES, startSkyward } = await import("./app.ts");
const roles = (process.env.ROLES ?? ROLES.join(",")).split(",").map((r) => r.trim()) as Role[];
const unknown = roles.filter((r) => !ROLES.includes(r));
if (unknown.length > 0) {
  console.error(`unknown roles: ${unknown.join(", ")}; choose from ${ROLES.join(", ")}`);
  process.exit(2);
}
// A process of background jobs only (npm start's jobs process, a production jobs process) runs below the requests'
// priority: a burst of itinerary PDFs then takes the CPU the web process leaves, not the CPU a request waits for.
if (roles.length === 1 && roles[0] === "jobs" && config.JOBS_NICE > 0) {
  try {
    os.setPriority(Math.max(os.getPriority(), config.JOBS_NICE));
  } catch (error) {
    console.warn(`jobs process: priority not lowered (${(error as Error).message})`);
  }
}
// No demo world in production unless SEED_DEMO is set explicitly (benchmarks and staging set it).
const app = await startSkyward({
  databaseUrl: config.DATABASE_URL,
  roles,
  seedDemo: "SEED_DEMO" in process.env && config.SEED_DEMO,
});
console.log(`Skyward ${roles.join("+")} listening at ${app.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void app.stop().then(() => process.exit(0));
  });
}
// A child of `npm start` (its jobs process, jobs-process.ts) ends with its parent: its stdin, a pipe from the
// parent, closes when the parent exits, even by kill -9.
if (process.env.SKYWARD_EXIT_WITH_PARENT === "true") {
  process.stdin.on("close", () => {
    void app.stop().then(() => process.exit(0));
  });
  process.stdin.resume();
}
