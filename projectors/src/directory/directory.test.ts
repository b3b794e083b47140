// The directory read model from real events in a real PostgreSQL: a batch folded into set-based statements must
// give the rows that applying the events one by one gives.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { DirectoryEvent } from "@skyward/contracts/directory";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import { rebuildProjection } from "@skyward/infra/projections/runtime";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { directory } from "./directory.ts";

let db: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  db = await createTestDatabase();
  store = new EventStore(db.pool);
});
afterAll(() => db.drop());

async function append(streamId: string, ...events: DirectoryEvent[]): Promise<void> {
  const metadata = systemMetadata();
  for (const e of events) await store.append({ streamId, expected: "any", events: [{ ...e, metadata }] });
}

async function rebuilt(batchSize: number, agencyId: string) {
  await rebuildProjection(db.pool, store, directory, { batchSize });
  const rows = (sql: string) => db.pool.query(sql, [agencyId]).then((r) => r.rows);
  return {
    agencies: await rows("SELECT id, name FROM read.agencies WHERE id = $1"),
    companies: await rows(
      "SELECT id, name, currency, shared_bookings FROM read.companies WHERE agency_id = $1",
    ),
    users: await rows(
      `SELECT id, email, first_name, last_name, phone, language, company_ids, onboarding, terms_version, api_token
         FROM read.users WHERE agency_id = $1`,
    ),
  };
}

describe("directory projection", () => {
  it("when an agency is renamed and a user completes, changes and accepts in one batch, then the rows are those of the events one by one", async () => {
    const agency = randomUUID();
    const company = randomUUID();
    const user = randomUUID();
    await append(
      `agency-${agency}`,
      { type: "AgencyRegistered", data: { agency_id: agency, name: "Dnipro Travel" } },
      { type: "AgencyRegistered", data: { agency_id: agency, name: "Dnipro Avia" } },
      { type: "AgencyGateToggled", data: { active: false } },
    );
    await append(
      `company-${company}`,
      {
        type: "CompanyRegistered",
        data: {
          company_id: company,
          agency_id: agency,
          name: "Kyiv",
          currency: "UAH",
          shared_bookings: true,
        },
      },
      { type: "CompanyMarkupsSet", data: { company_id: company, markups: [] } },
    );
    await append(
      `user-${user}`,
      {
        type: "UserRegistered",
        data: {
          user_id: user,
          email: "agent@example.com",
          first_name: "Olena",
          last_name: "Shevchenko",
          user_type: "Agent",
          phone: null,
          language: "ua",
          agency_id: agency,
          company_ids: [company],
          demo_user: false,
          auth_method: "otp",
        },
      },
      {
        type: "AccountInfoCompleted",
        data: { first_name: "Olena", last_name: "Koval", phone: "+380501112233" },
      },
      { type: "LocaleChanged", data: { language: "en" } },
      { type: "AccountDetailsUpdated", data: { language: "pl" } },
      { type: "TermsAccepted", data: { terms_version: "2026-01" } },
      { type: "PhoneChanged", data: { phone: "+380509998877" } },
      { type: "EmailChanged", data: { email: "olena@example.com", previous_email: "agent@example.com" } },
      { type: "ApiTokenIssued", data: { replaced: false } },
    );

    const oneByOne = await rebuilt(1, agency);
    const together = await rebuilt(1000, agency);

    expect(together).toEqual(oneByOne);
    expect(together).toEqual({
      agencies: [{ id: agency, name: "Dnipro Avia" }],
      companies: [{ id: company, name: "Kyiv", currency: "UAH", shared_bookings: true }],
      users: [
        {
          id: user,
          email: "olena@example.com",
          first_name: "Olena",
          last_name: "Koval",
          phone: "+380509998877",
          language: "pl",
          company_ids: [company],
          onboarding: "done",
          terms_version: "2026-01",
          api_token: true,
        },
      ],
    });
  });

  it("when a partner and its company are administered and an agent moves between companies in one batch, then the rows are those of the events one by one", async () => {
    const agency = randomUUID();
    const first = randomUUID();
    const second = randomUUID();
    const user = randomUUID();
    const company = (id: string, name: string): DirectoryEvent => ({
      type: "CompanyRegistered",
      data: { company_id: id, agency_id: agency, name, currency: "UAH", shared_bookings: false },
    });
    await append(
      `agency-${agency}`,
      { type: "AgencyRegistered", data: { agency_id: agency, name: "Carpathia" } },
      { type: "AgencyUpdated", data: { agency_id: agency, name: "Carpathia Travel" } },
      { type: "AgencyFlagSet", data: { agency_id: agency, flag: "corporate_number_on", on: true } },
    );
    await append(`company-${first}`, company(first, "Uzhhorod"), {
      type: "CompanySharedBookingsSet",
      data: { company_id: first, shared_bookings: true },
    });
    await append(`company-${second}`, company(second, "Mukachevo"));
    await append(
      `user-${user}`,
      {
        type: "UserRegistered",
        data: {
          user_id: user,
          email: `${user}@example.com`,
          first_name: "Mykola",
          last_name: "Hutsul",
          user_type: "Agent",
          phone: null,
          language: "ua",
          agency_id: agency,
          company_ids: [first],
          demo_user: false,
          auth_method: "otp",
        },
      },
      { type: "UserDisconnectedFromCompany", data: { user_id: user, company_id: first } },
      { type: "UserConnectedToCompany", data: { user_id: user, agency_id: agency, company_id: second } },
    );
    await append(
      `joinagency-${user}`,
      {
        type: "JoinAgencyRequested",
        data: { request_id: user, user_id: user, agency_id: agency, company_id: null },
      },
      { type: "JoinAgencyRequestAccepted", data: { request_id: user, company_id: second } },
    );
    await append(`company-${first}`, { type: "CompanyDeleted", data: { company_id: first } });

    const state = async (batchSize: number) => {
      await rebuildProjection(db.pool, store, directory, { batchSize });
      const rows = (sql: string) => db.pool.query(sql, [agency]).then((r) => r.rows);
      return {
        agencies: await rows("SELECT name, corporate_number_on, deleted FROM read.agencies WHERE id = $1"),
        companies: await rows(
          "SELECT name, shared_bookings, deleted FROM read.companies WHERE agency_id = $1 ORDER BY name",
        ),
        users: await rows("SELECT company_ids FROM read.users WHERE agency_id = $1"),
        relationships: await rows(
          `SELECT r.company_id FROM read.agent_company_relationships r JOIN read.companies c ON c.id = r.company_id
            WHERE c.agency_id = $1`,
        ),
        requests: await rows("SELECT status, company_id FROM read.join_agency_requests WHERE agency_id = $1"),
        history: await rows("SELECT type FROM read.directory_history WHERE agency_id = $1 ORDER BY position"),
      };
    };
    const oneByOne = await state(1);
    const together = await state(1000);
    expect(together).toEqual(oneByOne);
    expect(together.agencies).toEqual([
      { name: "Carpathia Travel", corporate_number_on: true, deleted: false },
    ]);
    expect(together.companies).toEqual([
      { name: "Mukachevo", shared_bookings: false, deleted: false },
      { name: "Uzhhorod", shared_bookings: true, deleted: true },
    ]);
    expect(together.users).toEqual([{ company_ids: [second] }]);
    expect(together.relationships).toEqual([{ company_id: second }]);
    expect(together.requests).toEqual([{ status: "accepted", company_id: second }]);
    expect(together.history.map((h) => h.type)).toEqual([
      "AgencyRegistered",
      "AgencyUpdated",
      "AgencyFlagSet",
      "CompanyRegistered",
      "CompanySharedBookingsSet",
      "CompanyRegistered",
      "UserDisconnectedFromCompany",
      "UserConnectedToCompany",
      "JoinAgencyRequested",
      "CompanyDeleted",
    ]);
  });
});
