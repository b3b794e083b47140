import { randomBytes } from "node:crypto";
import type { ApiTokenStatusResponse } from "@skyward/contracts/account";
import type { Position } from "@skyward/contracts/position";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import { sha256 } from "@skyward/infra/http/auth";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../deps.ts";
import { emailChangeCodeMail, emailInUseMail } from "../notifications/messages.ts";
import type { NotificationPorts } from "../notifications/ports.ts";
import { type AccountOutcome, runAccountCommand, runEmailChange } from "./commands.ts";
import { activeUser } from "./decide.ts";
import { codeRefusal, type SignInService } from "./sign-in.ts";
import { findUserByEmail, loadUser } from "./user.ts";

/** The account commands that need more than the user's stream: an e-mail change by code, the API token. */
export class AccountService {
  constructor(
    private readonly deps: CommandDeps,
    private readonly ports: NotificationPorts,
    private readonly signIn: SignInService,
  ) {}

  /**
   * Sends a code to the new address: only its owner can complete the change. The answer is the same whether or
   * not the address already has an account (that would tell a stranger who is registered); the mail says so.
   */
  async requestEmailChange(
    principal: Principal,
    newEmail: string,
    context: RequestContext,
  ): Promise<{ pending_email: string; position: Position | null }> {
    const now = this.deps.now();
    await this.signIn.limiter.hit(
      [{ key: `email_change:user:${principal.userId}`, limit: this.signIn.limits.emailChangesPerUser }],
      now,
    );
    const { user, position } = await runEmailChange(
      this.deps.store,
      principal.userId,
      { type: "RequestEmailChange", newEmail },
      metadataFor(context),
    );
    const code = await this.signIn.codes.issue(
      { email: user.email, purpose: "email_change", userId: user.user_id, newEmail, channel: "email" },
      now,
    );
    // The same work either way (the code is issued even when it cannot be used), so timing tells nothing either.
    const owner = await findUserByEmail(this.deps.store, newEmail);
    const inUse = owner !== null && owner.user_id !== user.user_id;
    const mail = inUse
      ? emailInUseMail(newEmail, owner.language)
      : emailChangeCodeMail(newEmail, code, user.language);
    // The mail job's failures are logged with the request's trace id.
    await this.ports.mailer.send({ ...mail, traceId: context.traceId });
    return { pending_email: newEmail, position };
  }

  async confirmEmailChange(
    principal: Principal,
    newEmail: string,
    attempt: string,
    context: RequestContext,
  ): Promise<AccountOutcome> {
    const now = this.deps.now();
    await this.signIn.limiter.hit(
      [
        {
          key: `email_change_attempt:user:${principal.userId}`,
          limit: this.signIn.limits.emailChangeAttemptsPerUser,
        },
      ],
      now,
    );
    const user = activeUser(await loadUser(this.deps.store, principal.userId));
    const check = await this.signIn.codes.check(
      { email: user.email, purpose: "email_change", newEmail, attempt },
      now,
    );
    if (!check.ok) throw codeRefusal(check, "/otp_attempt");
    const outcome = await runEmailChange(
      this.deps.store,
      principal.userId,
      { type: "ChangeEmail", newEmail },
      metadataFor(context),
    );
    // A sign-in code sent to the old address must not open the account any more.
    await this.signIn.codes.discard(user.email, "sign_in");
    return outcome;
  }

  /** Whether the user has a token, since when, and its last use (touched at most once a minute, see authenticate). */
  async apiTokenStatus(principal: Principal): Promise<ApiTokenStatusResponse> {
    const { rows } = await this.deps.pool.query<{ created_at: Date; last_used_at: Date | null }>(
      "SELECT created_at, last_used_at FROM app.api_tokens WHERE user_id = $1",
      [principal.userId],
    );
    const row = rows[0];
    return {
      data: {
        active: row !== undefined,
        created_at: row ? row.created_at.toISOString() : null,
        last_used_at: row?.last_used_at ? row.last_used_at.toISOString() : null,
      },
    };
  }

  /** Withdraws the user's token: the event first, then the hash, so a refused revoke leaves the token working. */
  async revokeApiToken(principal: Principal, context: RequestContext): Promise<{ position: Position }> {
    const { position } = await runAccountCommand(
      this.deps.store,
      principal.userId,
      { type: "RevokeApiToken" },
      metadataFor(context),
    );
    if (!position) throw new Error("ApiTokenRevoked was not written");
    await this.deps.pool.query("DELETE FROM app.api_tokens WHERE user_id = $1", [principal.userId]);
    return { position };
  }

  /** A new token replaces the previous one; only its hash is kept, so it is shown this once. */
  async issueApiToken(
    principal: Principal,
    context: RequestContext,
  ): Promise<{ token: string; position: Position }> {
    const { position } = await runAccountCommand(
      this.deps.store,
      principal.userId,
      { type: "IssueApiToken" },
      metadataFor(context),
    );
    if (!position) throw new Error("ApiTokenIssued was not written");
    const token = `sky_${randomBytes(32).toString("base64url")}`;
    await this.deps.pool.query(
      `INSERT INTO app.api_tokens (token_hash, user_id, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE
         SET token_hash = EXCLUDED.token_hash, created_at = EXCLUDED.created_at, last_used_at = NULL`,
      [sha256(token), principal.userId, this.deps.now()],
    );
    return { token, position };
  }
}
