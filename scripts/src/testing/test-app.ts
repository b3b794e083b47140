import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { type Skyward, type SkywardOptions, startSkyward } from "../app.ts";
import { type AnswerViolation, answerCheck } from "./answer-check.ts";
import { HttpClient } from "./http-client.ts";

export interface TestApp {
  app: Skyward;
  db: TestDatabase;
  /** Answers that were not what their route's contract describes (each was turned into a 500). */
  answerViolations: AnswerViolation[];
  /** A fresh browser-like client (own cookie jar). */
  client(headers?: Record<string, string>): HttpClient;
  /** Events of one stream, oldest first. */
  events(
    streamId: string,
  ): Promise<{ type: string; data: Record<string, unknown>; metadata: Record<string, unknown> }[]>;
  /**
   * Events in the store but those jobs append in the background whatever a test does: the agency's invoice numbers
   * for each new sale (issue 24.4) and the records of mails sent to the traveller (the itinerary on issue, a schedule
   * change's mail). What "a refused call writes nothing" counts while those jobs may still run.
   */
  countEventsButBackground(): Promise<number>;
  stop(): Promise<void>;
}

/** The all-in-one app on its own fresh database with the demo world, for integration tests. */
export async function startTestApp(options: Partial<SkywardOptions> = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  // Every JSON answer is checked against its route's answer schema in contracts (issue 22).
  const check = answerCheck();
  const app = await startSkyward({
    checkAnswers: check.middleware,
    databaseUrl: db.url,
    port: 0,
    seedDemo: true,
    logLevel: process.env.TEST_LOG_LEVEL ?? "silent",
    ...options,
  });
  return {
    app,
    db,
    answerViolations: check.violations,
    client: (headers) => new HttpClient(app.url, headers),
    async events(streamId) {
      const { rows } = await db.pool.query(
        "SELECT event_type AS type, data, metadata FROM es.events WHERE stream_id = $1 ORDER BY stream_position",
        [streamId],
      );
      return rows;
    },
    async countEventsButBackground() {
      const { rows } = await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM es.events
          WHERE stream_id NOT LIKE 'invoices-%' AND event_type <> ALL ($1::text[])`,
        [["ItineraryMailed", "ScheduleChangeMailed"]],
      );
      return rows[0]?.n ?? 0;
    },
    async stop() {
      await app.stop();
      await db.drop();
    },
  };
}
