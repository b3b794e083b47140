import { CardBrand, type CreateCardRequest, cardBrand } from "@skyward/contracts/cards";
import { runCommand } from "@skyward/infra/event-store/command";
import { isAdministrator } from "@skyward/infra/http/auth";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import { newId } from "@skyward/infra/ids";
import type { CommandDeps } from "../../deps.ts";
import { decideCard, initialCard } from "../card.ts";
import type { CardVault } from "../card-vault.ts";
import { initialPartnerGate } from "../gates.ts";
import { cardAppend } from "./on-card.ts";
import { foldAgencyGate } from "./toggle-gate.ts";

/** POST /credit_cards: the number goes to the vault and nowhere else; the card keeps its token and facts. */
export async function registerCard(
  deps: CommandDeps,
  vault: CardVault,
  context: RequestContext,
  p: Principal,
  request: CreateCardRequest,
) {
  const agencyId = isAdministrator(p) ? (request.agency_id ?? null) : p.agencyId;
  if (!isAdministrator(p) && request.agency_id && request.agency_id !== p.agencyId)
    throw new NotFound("No such agency", "agency_not_found");
  const facts = {
    brand: CardBrand.parse(cardBrand(request.number)),
    last4: request.number.slice(-4),
    exp_month: request.exp_month,
    exp_year: request.exp_year,
    holder: request.holder,
  };
  // Expiry is refused before the number leaves for the vault.
  decideCard(
    { type: "RegisterCard", card_id: "check", agency_id: agencyId, facts, token: "check", now: deps.now() },
    initialCard,
  );
  const { token } = await vault.tokenize({ number: request.number, ...facts });
  const cardId = newId();
  const { append } = await runCommand(deps.store, async (cmd) => {
    if (agencyId) {
      const agency = await cmd.load(`agency-${agencyId}`, foldAgencyGate, initialPartnerGate);
      if (!agency.state.exists) throw new NotFound("No such agency", "agency_not_found");
    }
    const events = decideCard(
      { type: "RegisterCard", card_id: cardId, agency_id: agencyId, facts, token, now: deps.now() },
      initialCard,
    );
    return {
      appends: [
        {
          ...cardAppend(context, { id: cardId, agency_id: agencyId }, 0, events),
          expected: "no_stream",
        },
      ],
      result: null,
    };
  });
  return { result: { data: { id: cardId, agency_id: agencyId, ...facts } }, append };
}
