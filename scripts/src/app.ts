import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { CommandDeps } from "@skyward/command-service/deps";
import type { SignInLimits } from "@skyward/command-service/identity/rate-limits";
import { openCommandJobs, startCommandJobs } from "@skyward/command-service/jobs/registry";
import { SearchResults } from "@skyward/command-service/offers/search-results";
import { DirectoryCache } from "@skyward/command-service/offers/selling-context";
import { commandRouter } from "@skyward/command-service/router";
import { withDeadlines } from "@skyward/command-service/suppliers/deadlines";
import { PgOperationLog } from "@skyward/command-service/suppliers/sandbox/operation-log";
import { SandboxSupplier } from "@skyward/command-service/suppliers/sandbox/sandbox-supplier";
import type { Supplier } from "@skyward/command-service/suppliers/supplier";
import { credentialsKey } from "@skyward/command-service/ticketing/credentials";
import { retirePublishedPasswords, seedDemoWorld } from "@skyward/command-service/world/seed";
import type { Config } from "@skyward/contracts/config";
import { Chainer } from "@skyward/infra/audit/chain";
import { clockSkewMs, clockSkewWarning } from "@skyward/infra/clock-skew";
import { readConfig } from "@skyward/infra/config";
import { createPool } from "@skyward/infra/db";
import { appendNotifications, ChangeNotices, shareAppends } from "@skyward/infra/event-store/change-notices";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { StreamLocks } from "@skyward/infra/event-store/stream-locks";
import { Wakeup } from "@skyward/infra/event-store/wakeup";
import { type ApiRateLimit, apiRateLimit } from "@skyward/infra/http/api-rate-limit";
import { createHttpApp } from "@skyward/infra/http/app";
import { authenticate } from "@skyward/infra/http/auth";
import { Csrf, readCookie } from "@skyward/infra/http/middleware";
import { probeRoutes } from "@skyward/infra/http/readiness";
import { createLogger } from "@skyward/infra/logger";
import { migrate } from "@skyward/infra/migrate";
import { localWaiter } from "@skyward/infra/projections/read-your-writes";
import { commitGroup, ProjectionRunner } from "@skyward/infra/projections/runtime";
import { SharedFeed } from "@skyward/infra/projections/shared-feed";
import { StorageHealth } from "@skyward/infra/storage-health";
import { metricsRoute, observeProcess, setMetricsEnabled } from "@skyward/infra/telemetry/metrics";
import { flushTraces, startTracing } from "@skyward/infra/telemetry/tracing";
import { projections } from "@skyward/projectors/index";
import { queryRouter } from "@skyward/query-service/router";
import type { Express, RequestHandler } from "express";
import { afterFirstPaintEntry, firstScreensOf, withFirstScreen } from "./first-screen.ts";
import { pageDataFor, withPageData } from "./page-data.ts";
import { LANGUAGE_COOKIE, pagePreloadsOf, withPreloads } from "./page-preloads.ts";
import { inlineScriptSources } from "./page-scripts.ts";
import { servePacks } from "./static-assets.ts";

export interface SkywardOptions {
  databaseUrl: string;
  port?: number;
  host?: string;
  seedDemo?: boolean;
  logLevel?: string;
  /** Overrides of the environment's configuration (tests). */
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
  supplier?: Supplier;
  /**
   * How often the booking sweep job looks for held bookings to expire and supplier confirmations to ask for (5 s),
   * and, unless `mailEveryMs` says otherwise, how often the mail sweep queues the mails due (1 s).
   */
  scheduleEveryMs?: number;
  mailEveryMs?: number;
  /** Overrides of the sign-in rate limits (tests that sign in many times). */
  rateLimits?: Partial<SignInLimits>;
  /** What this process runs; all of them in the all-in-one process (the default). */
  roles?: readonly Role[];
  /** Overrides of the per-API-token rate limit (tests). */
  apiRateLimit?: ApiRateLimit;
  /** Tests: checks each answer against its route's contract (testing/answer-check.ts); none in production. */
  checkAnswers?: RequestHandler;
}

/**
 * What a process runs: `jobs` is the background work (mails and their PDFs, invoices, notifications, expiry,
 * reconciliation) on graphile-worker, in a process beside the web processes so its CPU never delays a request.
 */
export const ROLES = ["command", "query", "projectors", "frontend", "jobs"] as const;
export type Role = (typeof ROLES)[number];

export interface Skyward {
  url: string;
  config: Config;
  pool: ReturnType<typeof createPool>;
  store: EventStore;
  runners: ProjectionRunner[];
  /** The Express app, for tests that walk its routes. */
  http: Express;
  /** What this process's commands run with, for tests that run a job's work directly (reconciliation). */
  commandDeps: CommandDeps;
  stop(): Promise<void>;
}

const frontendDist = fileURLToPath(new URL("../../frontend/dist/", import.meta.url));

function indexHtml(): string | null {
  const path = `${frontendDist}index.html`;
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

/** The page with the product-analytics key and server URL the browser SDK reads (empty: no SDK is loaded). */
function analyticsPage(html: string, config: Config): string {
  const attribute = (v: string) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return html
    .replace("__ANALYTICS_KEY__", attribute(config.ANALYTICS_KEY ?? ""))
    .replace(
      "__ANALYTICS_SERVER_URL__",
      attribute(config.ANALYTICS_KEY ? (config.ANALYTICS_SERVER_URL ?? "") : ""),
    )
    .replace("__ANALYTICS_REPLAY_SAMPLE_RATE__", String(config.ANALYTICS_REPLAY_SAMPLE_RATE ?? ""));
}

/** Where the page's SDK may send events and session replays (the CSP's connect-src): none without a key. */
function analyticsOrigins(config: Config): string[] {
  if (!config.ANALYTICS_KEY) return [];
  // Amplitude's EU zone replays through its EU hosts; a proxy takes events and replays on its origin.
  const server = config.ANALYTICS_SERVER_URL ? new URL(config.ANALYTICS_SERVER_URL) : null;
  if (server && /(^|\.)eu\.amplitude\.com$/.test(server.hostname))
    return [server.origin, "https://api-sr.eu.amplitude.com", "https://sr-client-cfg.eu.amplitude.com"];
  if (server) return [server.origin];
  return [
    "https://api2.amplitude.com",
    "https://api-sr.amplitude.com",
    "https://sr-client-cfg.amplitude.com",
  ];
}

/**
 * The all-in-one process: migrates, runs every projector, mounts the command and query routers and serves the
 * built frontend on one origin. In production the same pieces run as separate processes (infra/deploy).
 */
export async function startSkyward(options: SkywardOptions): Promise<Skyward> {
  const config = readConfig({ ...process.env, ...options.env, DATABASE_URL: options.databaseUrl });
  const logger = createLogger(options.logLevel ?? config.LOG_LEVEL);
  // Traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (serve.ts starts them before anything is imported).
  await startTracing(config.OTEL_EXPORTER_OTLP_ENDPOINT);
  setMetricsEnabled(config.METRICS_ENABLED);
  // A server restart drops every pooled connection at once: one warning a second says so without flooding.
  let lostLoggedAt = 0;
  const pool = createPool(options.databaseUrl, {
    max: 40,
    applicationName: "skyward-all-in-one",
    onConnectionError(error) {
      if (Date.now() - lostLoggedAt < 1000) return;
      lostLoggedAt = Date.now();
      logger.warn({ err: error }, "database connection lost");
    },
  });
  await migrate(pool);
  const roles = new Set(options.roles ?? ROLES);
  const split = roles.size < ROLES.length;
  // NOTIFY only reaches other processes: the all-in-one process wakes its projectors in memory.
  const wakeup = new Wakeup(split ? pool : undefined);
  // Changes made by other processes drop this process's in-memory copies of them at once.
  const notices = split ? new ChangeNotices(pool) : undefined;
  // Jobs append too (expiry, invoice numbers, mail records): their appends drop other processes' copies alike.
  const sharing = notices && (roles.has("command") || roles.has("jobs")) ? notices : undefined;
  // Group commit (issue 26): appends of concurrent commands share one statement and one commit, which also sends
  // their wake-up and change notice to the other processes (no NOTIFY statement of its own after each append).
  const store = new EventStore(pool, wakeup, undefined, {
    groupCommit: true,
    ...(sharing ? { notify: appendNotifications(sharing) } : {}),
  });
  await store.assertNotRestored();

  // Commands appended by other processes wake this process's projectors through NOTIFY.
  const unlisten = split ? await wakeup.listen(options.databaseUrl, { logger }) : null;
  const stopNotices = notices ? await notices.listen(options.databaseUrl) : null;
  const stopSharing = sharing ? shareAppends(sharing) : null;
  // One query of the feed's head for every projector of the process between two wake-ups (issue 26).
  const feed = new SharedFeed(store, undefined, wakeup);
  // The projectors' batches ready together commit in one transaction (issue 26).
  const commits = commitGroup(pool);
  const runners = roles.has("projectors")
    ? projections.map((p) => new ProjectionRunner(pool, store, p, wakeup, { feed, commits, logger }))
    : [];
  for (const runner of runners) runner.start();
  // The tamper-evident log's chainer links events behind the appends, where the projectors run (issue 14).
  const chainer = roles.has("projectors") ? new Chainer(pool, { wakeup, logger }) : null;
  chainer?.start();
  if (roles.has("command")) {
    const production = config.NODE_ENV === "production";
    const passwords =
      (options.seedDemo ?? config.SEED_DEMO)
        ? await seedDemoWorld(store, pool, { production })
        : production
          ? await retirePublishedPasswords(pool)
          : [];
    // Shown once, on stdout and never through the log: nowhere else holds them in the clear.
    if (passwords.length > 0)
      process.stdout.write(
        `Demo world passwords (shown once):\n${passwords.map((p) => `  ${p.email}  ${p.password}\n`).join("")}`,
      );
  }

  // A full disk (met by a request or readiness's own write) turns readiness 503 until a write succeeds (issue 29).
  const storage = new StorageHealth(pool, { probeEveryMs: config.STORAGE_PROBE_EVERY_MS });
  const csrf = new Csrf({
    secret: config.SESSION_SECRET ?? randomBytes(32).toString("hex"),
    secureCookies: config.NODE_ENV === "production",
  });
  const now = options.now ?? (() => new Date());
  // Jobs run on the database's clock; decisions on this process's: say so when the two disagree (issue 29).
  const skew = clockSkewWarning(await clockSkewMs(pool, now));
  if (skew) logger.warn(skew);
  const html = indexHtml();
  const preloads = pagePreloadsOf(frontendDist);
  const firstScreens = firstScreensOf(frontendDist);
  const commandDeps: CommandDeps = {
    pool,
    store,
    config,
    logger,
    now,
    rateLimits: options.rateLimits,
    // The sandbox airline keeps its record of operations in the database, where every process and a restart find it.
    // Every supplier call has a deadline: a hung airline never hangs the request (issue 29).
    supplier: withDeadlines(
      options.supplier ?? new SandboxSupplier({ operations: new PgOperationLog(pool) }),
      { defaultMs: config.SUPPLIER_TIMEOUT_MS, perCall: config.SUPPLIER_TIMEOUTS },
    ),
    searches: new SearchResults(pool, { notices }),
    directory: new DirectoryCache(store, pool, { notices, credentialsKey: credentialsKey(config) }),
    streamLocks: new StreamLocks(),
    jobs: await openCommandJobs(pool),
    replayable: projections,
  };
  // The scrape-time figures (pool, projector lag, queue depth, open operations) of this process (issue 30).
  const unobserve = observeProcess({
    pool,
    commands: roles.has("command") || roles.has("jobs"),
    projectors: () => runners.map((r) => ({ name: r.projection.name, position: r.committed })),
  });
  // Jobs run in the processes with the jobs role (the all-in-one process, or the jobs process beside web processes
  // that run none); each job runs in one of them.
  const jobRunner = roles.has("jobs")
    ? await startCommandJobs(commandDeps, {
        sweepEveryMs: options.scheduleEveryMs ?? 5000,
        mailEveryMs: options.mailEveryMs ?? options.scheduleEveryMs ?? 1000,
      })
    : null;

  const app = createHttpApp(
    {
      logger,
      csrf,
      authenticate: authenticate(pool, { notices }),
      production: config.NODE_ENV === "production",
      probes: probeRoutes({ pool, runners, storage, now }),
      metricsRoute: metricsRoute({
        production: config.NODE_ENV === "production",
        token: config.METRICS_TOKEN,
      }),
      storage,
      trustProxy: config.TRUST_PROXY,
      connectSources: analyticsOrigins(config),
      // The entry as built, and as a page with its first screen runs it (after the first paint).
      scriptSources: html
        ? [...new Set([...inlineScriptSources(html), ...inlineScriptSources(afterFirstPaintEntry(html))])]
        : [],
      checkAnswers: options.checkAnswers,
    },
    (app) => {
      // Bearer (API token) calls take from their token's bucket, shared by every process (issue 14).
      app.use(apiRateLimit(pool, options.apiRateLimit));
      app.get("/csrf", (req, res) => {
        res.json({ token: csrf.tokenFor(req, res) });
      });
      // The single-page app answers every page load (a GET that prefers HTML); API calls ask for JSON.
      if (roles.has("frontend")) {
        const pageReadModels = localWaiter(pool, runners);
        app.use(async (req, res, next) => {
          if (req.method !== "GET" || req.accepts(["json", "html"]) !== "html") return next();
          const token = csrf.tokenFor(req, res);
          const page = html
            ? withPreloads(
                html,
                preloads(req.path, req.context.principal !== null, readCookie(req, LANGUAGE_COOKIE)),
              )
            : "<p>Frontend not built: run npm run build:frontend</p>";
          // Who is signed in, read for this request's own session, written in last (after the placeholders).
          const data = html
            ? await pageDataFor(pool, pageReadModels, req.context.principal, {
                path: req.path,
                query: req.query,
              })
            : null;
          res
            .type("html")
            // Never stored, by the browser or anything between: the page carries this caller's account and token,
            // and names the current release's hashed assets (themselves immutable).
            .set("Cache-Control", "no-store")
            .vary("Cookie")
            .send(
              withPageData(
                analyticsPage(
                  // The page's own first screen, painted before its scripts run (issue 27, mobile LCP).
                  withFirstScreen(
                    page,
                    firstScreens(
                      { path: req.path, query: req.query },
                      data,
                      readCookie(req, LANGUAGE_COOKIE),
                    ),
                  ),
                  config,
                ).replace("__CSRF_TOKEN__", token),
                data,
              ),
            );
        });
        app.use("/packs", servePacks(frontendDist));
      }
      if (roles.has("command")) app.use(commandRouter(commandDeps));
      if (roles.has("query"))
        app.use(queryRouter({ pool, config, logger, readModels: localWaiter(pool, runners) }));
    },
  );

  const server = app.listen(options.port ?? config.PORT, options.host ?? config.HOST);
  // The server never closes an idle keep-alive socket before its client would: Node's 5 s default closed sockets a
  // client was reusing at that moment (ECONNRESET, 'socket hang up' on a loaded machine); nginx keeps its upstream
  // sockets up to 60 s.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? config.HOST;

  let stopping: Promise<void> | null = null;
  return {
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`,
    config,
    pool,
    store,
    runners,
    http: app,
    commandDeps,
    stop() {
      stopping ??= (async () => {
        // Finish requests in flight, refuse new ones, then stop projectors and the pool.
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const timer = setTimeout(() => server.closeAllConnections(), 5000);
        await closed;
        clearTimeout(timer);
        unobserve();
        await flushTraces();
        await jobRunner?.stop();
        await commandDeps.jobs.close();
        await Promise.all(runners.map((r) => r.stop()));
        feed.close();
        await chainer?.stop();
        await unlisten?.();
        commandDeps.directory.close();
        commandDeps.searches.close();
        stopSharing?.();
        await stopNotices?.();
        await pool.end();
      })();
      return stopping;
    },
  };
}
