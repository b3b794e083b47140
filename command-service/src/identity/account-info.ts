import type { AccountInfo, NamedRef } from "@skyward/contracts/account";
import type { EventStore } from "@skyward/infra/event-store/event-store";
import type { ActiveUser } from "./user.ts";

/** An agency's or company's current name: the latest `name` its stream recorded. */
async function named(store: EventStore, streamType: "agency" | "company", id: string): Promise<NamedRef> {
  let name = "";
  for (const event of await store.readStream(`${streamType}-${id}`)) {
    const data = event.data as { name?: unknown };
    if (typeof data.name === "string") name = data.name;
  }
  return { id, name };
}

/**
 * The account info the sign-in answers with, read from the event store (the directory read model may not have
 * the sign-in yet). Same shape and values as `GET /account/details`.
 */
export async function accountInfoOf(store: EventStore, user: ActiveUser): Promise<AccountInfo> {
  const companies = await Promise.all(user.company_ids.map((id) => named(store, "company", id)));
  const agencies = user.agency_id ? [await named(store, "agency", user.agency_id)] : [];
  return {
    skyward_id: user.user_id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    user_type: user.user_type,
    phone: user.phone,
    language: user.language,
    company: companies[0] ?? null,
    companies,
    agencies,
    demo_user: user.demo_user,
    logo: null,
    score: null,
  };
}
