import { CREDENTIAL_MESSAGES, type CredentialRequest } from "@skyward/contracts/ticketing-commands";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../../deps.ts";
import { channelStream, decideChannel, evolveChannel, initialChannel } from "../channel.ts";
import type { ChannelCredentialStore } from "../credentials.ts";
import { channelFor, onChannel } from "./on-channel.ts";

/**
 * POST (`first`) or PATCH /ticketing/agency_channels/{id}/credential: stored encrypted, checked with the supplier
 * at once; the answer says how the check went.
 */
export async function replaceCredentials(
  deps: CommandDeps,
  credentialStore: ChannelCredentialStore,
  context: RequestContext,
  p: Principal,
  channelId: string,
  credentials: CredentialRequest,
  first: boolean,
) {
  const { state } = await deps.store.fold(channelStream(channelId), evolveChannel, initialChannel);
  const channel = channelFor(p, state);
  // Checked before anything is stored: no transaction is held open across the supplier's answer.
  const check = await deps.supplier.checkCredentials(credentials, { now: deps.now() });
  await credentialStore.save(channelId, credentials);
  const { append } = await onChannel(deps, context, p, channelId, async (current) => ({
    events: decideChannel({ type: "ReplaceCredentials", active: check.active }, current),
    result: null,
  }));
  const messages = check.active
    ? [
        { type: "success", text: CREDENTIAL_MESSAGES.active },
        ...(first ? [{ type: "success", text: CREDENTIAL_MESSAGES.enable }] : []),
      ]
    : [{ type: "error", text: CREDENTIAL_MESSAGES.inactive }];
  const { rows: companies } = await deps.pool.query(
    "SELECT id, name FROM read.companies WHERE agency_id = $1 ORDER BY name",
    [channel.agency_id],
  );
  return {
    result: { credential: { active: check.active, agency_id: channel.agency_id }, companies, messages },
    append,
  };
}
