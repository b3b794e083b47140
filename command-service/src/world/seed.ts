import { randomBytes } from "node:crypto";
import type { BalanceToppedUp } from "@skyward/contracts/balances";
import type {
  AgencyEvent,
  AgencyRegistered,
  AgencyTimeZoneSet,
  CompanyEvent,
  CompanyRegistered,
  UserRegistered,
} from "@skyward/contracts/directory";
import type { ChannelCreated } from "@skyward/contracts/ticketing";
import { runCommand } from "@skyward/infra/event-store/command";
import type { EventStore } from "@skyward/infra/event-store/event-store";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import type { StreamAppend } from "@skyward/infra/event-store/types";
import { deterministicId } from "@skyward/infra/ids";
import { hash, verify } from "argon2";
import type pg from "pg";
import { balanceStream } from "../balances/balance.ts";
import { registerUserAppends } from "../identity/user.ts";
import { channelStream } from "../ticketing/channel.ts";
import { DEMO_PASSWORD, demoAgencies, demoCompanies, demoUsers } from "./demo-world.ts";

export const demoId = (kind: string, key: string) => deterministicId(`demo:${kind}:${key}`);

export interface SeedOptions {
  /**
   * Outside production every demo user gets the published DEMO_PASSWORD. In production each gets a random one
   * instead, returned once to be printed, and a published password left by an earlier seeding is replaced.
   */
  production?: boolean;
}

/** A password the seeding just set, to be shown once to whoever started the process. */
export interface SeededPassword {
  email: string;
  password: string;
}

/**
 * Seeds the demo world as ordinary events. Event ids are derived from the demo keys, so seeding again is a
 * no-op (the event store ignores re-appended ids) and the ids are the same on every machine.
 */
export async function seedDemoWorld(
  store: EventStore,
  pool: pg.Pool,
  options: SeedOptions = {},
): Promise<SeededPassword[]> {
  const seeded: SeededPassword[] = [];
  const metadata = systemMetadata();
  const agencyId = (key: string) => demoId("agency", key);
  const companyId = (key: string) => demoId("company", key);

  const appends: StreamAppend[] = [];
  for (const a of demoAgencies) {
    const data: AgencyRegistered = { agency_id: agencyId(a.key), name: a.name };
    appends.push({
      streamId: `agency-${data.agency_id}`,
      expected: "any",
      events: [{ event_id: demoId("event", `agency:${a.key}`), type: "AgencyRegistered", data, metadata }],
    });
  }
  for (const c of demoCompanies) {
    const data: CompanyRegistered = {
      company_id: companyId(c.key),
      agency_id: agencyId(c.agency),
      name: c.name,
      currency: c.currency,
      shared_bookings: c.shared_bookings,
    };
    appends.push({
      streamId: `company-${data.company_id}`,
      expected: "any",
      events: [{ event_id: demoId("event", `company:${c.key}`), type: "CompanyRegistered", data, metadata }],
    });
  }
  for (const a of demoAgencies) {
    const channel: ChannelCreated = {
      channel_id: demoId("channel", a.key),
      agency_id: agencyId(a.key),
      title: "Sandbox NDC",
      supplier: "sandbox",
      currency: a.currency,
      form_of_payment: "balance",
      void_window_hours: 24,
      credential_active: true,
      sources: { web: true, api: true, extension: true },
    };
    appends.push({
      streamId: channelStream(channel.channel_id),
      expected: "any",
      events: [
        { event_id: demoId("event", `channel:${a.key}`), type: "ChannelCreated", data: channel, metadata },
      ],
    });
  }
  for (const c of demoCompanies) {
    const topUp: BalanceToppedUp = {
      company_id: companyId(c.key),
      amount: { amount: c.balance, currency: c.currency },
      comment: "Opening balance",
    };
    appends.push({
      streamId: balanceStream(topUp.company_id),
      expected: "any",
      events: [
        { event_id: demoId("event", `balance:${c.key}`), type: "BalanceToppedUp", data: topUp, metadata },
      ],
    });
  }
  // Markups and fees the price detail shows (their admin screens come later).
  const uah = (amount: number) => ({ amount, currency: "UAH" });
  const pricing: ({ streamId: string } & (AgencyEvent | CompanyEvent))[] = [
    {
      streamId: `agency-${agencyId("dnipro")}`,
      type: "AgencyPricingSet",
      data: {
        agency_id: agencyId("dnipro"),
        markups: [{ carrier: null, charge: { kind: "percent", bps: 150 } }],
        transaction_fee: { kind: "fixed", amount: uah(50_00), per: "passenger" },
      },
    },
    {
      streamId: `company-${companyId("dnipro-kyiv")}`,
      type: "CompanyMarkupsSet",
      data: {
        company_id: companyId("dnipro-kyiv"),
        markups: [{ carrier: null, charge: { kind: "fixed", amount: uah(100_00), per: "passenger" } }],
      },
    },
    {
      streamId: `agency-${agencyId("vistula")}`,
      type: "AgencyPricingSet",
      data: {
        agency_id: agencyId("vistula"),
        markups: [{ carrier: null, charge: { kind: "percent", bps: 200 } }],
        transaction_fee: { kind: "fixed", amount: { amount: 10_00, currency: "PLN" }, per: "booking" },
      },
    },
  ];
  await store.append(appends);
  // A later event of the agency stream (a seed from before it gets it on the next start).
  await store.append(
    demoAgencies.map((a) => ({
      streamId: `agency-${agencyId(a.key)}`,
      expected: "any" as const,
      events: [
        {
          event_id: demoId("event", `time-zone:${a.key}`),
          type: "AgencyTimeZoneSet",
          data: { agency_id: agencyId(a.key), time_zone: a.time_zone } satisfies AgencyTimeZoneSet,
          metadata,
        },
      ],
    })),
  );
  await store.append(
    pricing.map((p) => ({
      streamId: p.streamId,
      expected: "any" as const,
      events: [{ event_id: demoId("event", `pricing:${p.streamId}`), type: p.type, data: p.data, metadata }],
    })),
  );

  for (const u of demoUsers) {
    const user: UserRegistered = {
      user_id: demoId("user", u.key),
      email: u.email,
      first_name: u.first_name,
      last_name: u.last_name,
      user_type: u.user_type,
      phone: u.phone,
      language: u.language,
      agency_id: u.agency_id ? agencyId(u.agency_id) : null,
      company_ids: u.company_ids.map(companyId),
      demo_user: u.demo_user,
      auth_method: u.password ? "password" : "otp",
    };
    const existing = await store.readStream(`user-${user.user_id}`, { maxCount: 1 });
    if (existing.length === 0) {
      await runCommand(store, async (ctx) => ({
        appends: await registerUserAppends(ctx, user, metadata, {
          user: demoId("event", `user:${u.key}`),
          email: demoId("event", `email:${u.key}`),
        }),
        result: null,
      }));
    }
    const credential = await pool.query<{ password_hash: string }>(
      "SELECT password_hash FROM app.credentials WHERE user_id = $1",
      [user.user_id],
    );
    const stored = credential.rows[0]?.password_hash;
    if (!options.production) {
      if (!stored)
        await pool.query(
          "INSERT INTO app.credentials(user_id, password_hash) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING",
          [user.user_id, await publishedPasswordHash()],
        );
      continue;
    }
    if (!stored) seeded.push(await setRandomPassword(pool, user.user_id, user.email));
  }
  if (options.production) seeded.push(...(await retirePublishedPasswords(pool)));
  return seeded;
}

/**
 * One argon2id hash of the published DEMO_PASSWORD for every demo user, made once per process: a seeding hashed it
 * once per user (9 hashes, about 5 s of CPU on 2 cores), and every test app seeds. The users share the hash's salt,
 * which protects nothing a published password has.
 */
let publishedHash: Promise<string> | undefined;
function publishedPasswordHash(): Promise<string> {
  publishedHash ??= hash(DEMO_PASSWORD).catch((error: unknown) => {
    publishedHash = undefined;
    throw error;
  });
  return publishedHash;
}

async function setRandomPassword(pool: pg.Pool, userId: string, email: string): Promise<SeededPassword> {
  const password = randomBytes(15).toString("base64url");
  await pool.query(
    `INSERT INTO app.credentials(user_id, password_hash) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET password_hash = EXCLUDED.password_hash`,
    [userId, await hash(password)],
  );
  return { email, password };
}

/**
 * For production, seeding or not: a database once run in development (`npm start`) holds the published
 * DEMO_PASSWORD for the demo users; each such user gets a random password instead, returned once to be printed.
 */
export async function retirePublishedPasswords(pool: pg.Pool): Promise<SeededPassword[]> {
  const emails = new Map(demoUsers.map((u) => [demoId("user", u.key), u.email]));
  const { rows } = await pool.query<{ user_id: string; password_hash: string }>(
    "SELECT user_id, password_hash FROM app.credentials WHERE user_id = ANY($1)",
    [[...emails.keys()]],
  );
  const retired: SeededPassword[] = [];
  for (const row of rows)
    if (await verify(row.password_hash, DEMO_PASSWORD))
      retired.push(await setRandomPassword(pool, row.user_id, emails.get(row.user_id) as string));
  return retired;
}
