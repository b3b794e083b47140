import type { GateName } from "@skyward/contracts/ticketing";
import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../../deps.ts";
import { evolveGlobalGates, GATES_STREAM, openGlobalGates } from "../channel.ts";
import { decideGlobalGate, decidePartnerGate, evolvePartnerGate, initialPartnerGate } from "../gates.ts";

export const foldAgencyGate = evolvePartnerGate("Agency");
export const foldCompanyGate = evolvePartnerGate("Company");

/** PATCH /ticketing/{main,agency,channel}_gate: one of the global gates (main, consolidator, every channel). */
export async function toggleGlobalGate(
  deps: CommandDeps,
  context: RequestContext,
  gate: GateName,
  active: boolean,
) {
  const { result, append } = await runCommand(deps.store, async (cmd) => {
    const gates = await cmd.load(GATES_STREAM, evolveGlobalGates, openGlobalGates);
    const events = decideGlobalGate(gate, { type: "ToggleGate", active }, gates.state);
    const metadata = metadataFor(context, { agency_id: null, company_id: null });
    return {
      appends: [
        {
          streamId: GATES_STREAM,
          expected: gates.version,
          events: events.map((e) => ({ ...e, metadata })),
        },
      ],
      result: { gate, active },
    };
  });
  return { result: { data: result }, append };
}

/** PATCH /ticketing/{agency,company}_gates/{id}: a partner's (agency's) or a company's gate, in its own stream. */
export async function togglePartnerGate(
  deps: CommandDeps,
  context: RequestContext,
  kind: "Agency" | "Company",
  id: string,
  active: boolean,
) {
  const stream = `${kind.toLowerCase()}-${id}`;
  const { result, append } = await runCommand(deps.store, async (cmd) => {
    const loaded = await cmd.load(
      stream,
      kind === "Agency" ? foldAgencyGate : foldCompanyGate,
      initialPartnerGate,
    );
    const events = decidePartnerGate(kind, { type: "ToggleGate", active }, loaded.state);
    const metadata = metadataFor(
      context,
      kind === "Agency"
        ? { agency_id: id, company_id: null }
        : { agency_id: loaded.state.agency_id, company_id: id },
    );
    return {
      appends: [
        { streamId: stream, expected: loaded.version, events: events.map((e) => ({ ...e, metadata })) },
      ],
      result: { id, active },
    };
  });
  return { result: { data: result }, append };
}
