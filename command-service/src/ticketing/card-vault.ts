import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { IllegalState } from "@skyward/infra/http/errors";

/** What the vault is given once; the number never goes anywhere else (PCI DSS). */
export interface CardToVault {
  number: string;
  exp_month: number;
  exp_year: number;
  holder: string;
}

/**
 * The card-vault port: a PCI DSS compliant service (a payment provider's vault) keeps the card number and answers
 * a token that charges go through. Nothing of ours stores or logs the number.
 */
export interface CardVault {
  tokenize(card: CardToVault): Promise<{ token: string }>;
}

/** The test card number a sandbox vault declines, as payment providers' sandboxes do. */
export const DECLINED_TEST_CARD = "4000000000000002";

/**
 * The built-in vault for development and tests: it keeps nothing (tokens are random, bound to the number only by a
 * keyed hash held in memory for this process) and declines the one test number, so the error path can be shown.
 */
export class SandboxCardVault implements CardVault {
  private readonly key = randomBytes(32);

  async tokenize(card: CardToVault): Promise<{ token: string }> {
    if (card.number === DECLINED_TEST_CARD)
      throw new IllegalState("The card was declined by the card vault", "card_declined");
    const binding = createHmac("sha256", this.key).update(card.number).digest("hex").slice(0, 12);
    return { token: `tok_sandbox_${binding}_${randomUUID()}` };
  }
}
