import { createHmac, randomBytes } from "node:crypto";
import type {
  AuthMethod,
  SignInFailureReason,
  SignInMethod,
  SignInResponse,
  StartSignInResponse,
} from "@skyward/contracts/account";
import type { Language } from "@skyward/contracts/ids";
import type { Position } from "@skyward/contracts/position";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { DomainError, IllegalState } from "@skyward/infra/http/errors";
import { metrics } from "@skyward/infra/telemetry/metrics";
import type { CommandDeps } from "../deps.ts";
import { signInCodeMail, voiceCodeText } from "../notifications/messages.ts";
import type { NotificationPorts } from "../notifications/ports.ts";
import { accountInfoOf } from "./account-info.ts";
import { runAccountCommand } from "./commands.ts";
import { type CodeChannel, type CodeCheck, OneTimeCodes } from "./one-time-codes.ts";
import { passwordMatches } from "./passwords.ts";
import {
  clientOf,
  codeRequestsLimited,
  defaultSignInLimits,
  RateLimiter,
  type SignInLimits,
} from "./rate-limits.ts";
import { type ActiveUser, findUserByEmail } from "./user.ts";

/** Who is knocking: for rate limits and the audit trail. */
export interface Caller {
  context: RequestContext;
  ip: string | null;
  userAgent: string | null;
  /** A hash of the browser's CSRF cookie: sign-in codes belong to the browser that asked for them. */
  browser: string;
}

/** A failed sign-in or code check; the detail says what to do next. */
export class SignInRefused extends DomainError {
  constructor(code: string, detail: string, pointer: string) {
    super(401, code, "Sign-in failed", detail, { pointer });
  }
}

export function codeRefusal(check: Exclude<CodeCheck, { ok: true }>, pointer: string): SignInRefused {
  switch (check.reason) {
    case "no_code":
      return new SignInRefused(
        "code_missing",
        "There is no active code for this e-mail. Request a new code.",
        pointer,
      );
    case "code_expired":
      return new SignInRefused("code_expired", "The code has expired. Request a new code.", pointer);
    case "code_locked":
      return new SignInRefused(
        "code_locked",
        "Too many wrong codes: this code no longer works. Request a new code.",
        pointer,
      );
    case "wrong_code":
      return new SignInRefused(
        "code_wrong",
        `The code is not correct. ${check.attemptsLeft} attempt${check.attemptsLeft === 1 ? "" : "s"} left.`,
        pointer,
      );
    default:
      check satisfies never;
      throw new Error("unknown code check result");
  }
}

const methodOf = (channel: CodeChannel): SignInMethod => (channel === "voice" ? "voice_code" : "email_code");

export const principalOf = (user: ActiveUser): Principal => ({
  userId: user.user_id,
  userType: user.user_type,
  agencyId: user.agency_id,
  companyIds: user.company_ids,
  demo: user.demo_user,
  sessionId: null,
});

/**
 * Signing in by e-mail code, voice code or password. An address nobody owns is answered exactly like an account:
 * its sign-in method is drawn from an HMAC of the address (so a repeated probe gets the same answer, and
 * "password" does not prove an account exists), a code is even issued and stored for it, never sent, and a
 * password is checked against a decoy hash, so answers and their timing do not reveal who has an account.
 */
export class SignInService {
  readonly codes: OneTimeCodes;
  readonly limiter: RateLimiter;
  readonly limits: SignInLimits;
  private readonly methodKey: string;

  constructor(
    private readonly deps: CommandDeps,
    private readonly ports: NotificationPorts,
  ) {
    // Without a configured secret (development) codes live as long as the process that issued them.
    const secret = deps.config.SESSION_SECRET ?? randomBytes(32).toString("hex");
    this.codes = new OneTimeCodes(
      deps.pool,
      createHmac("sha256", secret).update("one-time codes").digest("hex"),
    );
    this.methodKey = createHmac("sha256", secret).update("decoy sign-in methods").digest("hex");
    this.limiter = new RateLimiter(deps.pool);
    this.limits = { ...defaultSignInLimits, ...deps.rateLimits };
  }

  /**
   * The method an address nobody owns appears to use: a quarter of them "password", the same one every time.
   * Real password users are a minority too, so neither answer tells an account from a probe.
   */
  private decoyMethod(email: string): AuthMethod {
    const digest = createHmac("sha256", this.methodKey).update(email).digest();
    return (digest[0] ?? 0) < 64 ? "password" : "otp";
  }

  private methodOf(user: ActiveUser | null, email: string): AuthMethod {
    return user ? user.auth_method : this.decoyMethod(email);
  }

  private codeRequestKeys = (email: string, caller: Caller) => ({
    perAddress: `code:email_ip:${email}:${clientOf(caller.ip)}`,
    perClient: `code:ip:${clientOf(caller.ip)}`,
  });

  /**
   * Per address and client, and per client: no limit here is one a stranger can use up for someone else. Codes
   * that signed their user in are taken back (see succeed), so only requests that led nowhere add up.
   */
  private countCodeRequest(email: string, caller: Caller) {
    const keys = this.codeRequestKeys(email, caller);
    return this.limiter.hit(
      [
        { key: keys.perAddress, limit: this.limits.codesPerEmailAndIp },
        { key: keys.perClient, limit: this.limits.codesPerIp },
      ],
      this.deps.now(),
      codeRequestsLimited,
    );
  }

  private failureKey = (email: string, caller: Caller) => `sign_in_failures:${email}:${clientOf(caller.ip)}`;

  /**
   * Refused while this address is backing off for this client; otherwise the attempt counts as a failure until
   * it succeeds, so a crash or a parallel guess cannot slip past the count.
   */
  private async countAttempt(email: string, caller: Caller) {
    const now = this.deps.now();
    await this.limiter.hit(
      [{ key: `sign_in:ip:${clientOf(caller.ip)}`, limit: this.limits.attemptsPerIp }],
      now,
    );
    const key = this.failureKey(email, caller);
    await this.limiter.assertNotBackingOff(key, this.limits.failureBackoff, now);
    await this.limiter.recordFailure(key, now);
  }

  /** Sending is not awaited: the answer must not wait for (or reveal) a delivery that only known users get. */
  private deliver(what: string, sending: Promise<void>) {
    sending.catch((error: unknown) =>
      this.deps.logger.error({ err: error }, `could not deliver the ${what}`),
    );
  }

  /**
   * A new code by e-mail (replacing the previous one and its spent attempts): the way back in for a user whose
   * code was locked by someone else's guesses.
   */
  async start(email: string, language: Language | undefined, caller: Caller): Promise<StartSignInResponse> {
    await this.countCodeRequest(email, caller);
    // No scheduler runs here: now and then a request clears codes and counters that expired a day ago.
    if (Math.random() < 0.01)
      await Promise.all([this.codes.prune(this.deps.now()), this.limiter.prune(this.deps.now())]);
    const user = await findUserByEmail(this.deps.store, email);
    if (this.methodOf(user, email) === "password")
      return { account: { auth_method: "password" }, position: null };
    const code = await this.codes.issue(
      { email, purpose: "sign_in", userId: user?.user_id ?? null, channel: "email", holder: caller.browser },
      this.deps.now(),
    );
    if (user)
      this.deliver(
        "sign-in code",
        this.ports.mailer.send({
          ...signInCodeMail(email, code, language ?? user.language),
          traceId: caller.context.traceId,
        }),
      );
    return { account: { auth_method: "otp" }, position: null };
  }

  /**
   * A new code read out by phone; it replaces the e-mailed one. Codes are stored only hashed, so the e-mailed
   * code cannot be read back. An account without a phone, or a process without a voice provider, sends the new
   * code by e-mail instead.
   */
  async sendVoiceCode(email: string, caller: Caller): Promise<StartSignInResponse> {
    await this.countCodeRequest(email, caller);
    const user = await findUserByEmail(this.deps.store, email);
    if (this.methodOf(user, email) === "password")
      return { account: { auth_method: "password" }, position: null };
    const voice = this.ports.voice;
    const phone = voice ? user?.phone : null;
    const code = await this.codes.issue(
      {
        email,
        purpose: "sign_in",
        userId: user?.user_id ?? null,
        channel: phone ? "voice" : "email",
        holder: caller.browser,
      },
      this.deps.now(),
    );
    if (user && voice && phone) {
      this.deliver("voice code", voice.call({ to: phone, email, text: voiceCodeText(code, user.language) }));
    } else if (user) {
      const mail = { ...signInCodeMail(email, code, user.language), traceId: caller.context.traceId };
      this.deliver("sign-in code", this.ports.mailer.send(mail));
    }
    return { account: { auth_method: "otp" }, position: null };
  }

  async withCode(email: string, attempt: string, caller: Caller): Promise<SignedIn> {
    await this.countAttempt(email, caller);
    const check = await this.codes.check(
      { email, purpose: "sign_in", attempt, holder: caller.browser },
      this.deps.now(),
    );
    if (!check.ok) {
      await this.recordFailure(email, methodOf(check.channel), check.reason, caller);
      throw codeRefusal(check, "/account/otp_attempt");
    }
    const user = await findUserByEmail(this.deps.store, email);
    if (!user || user.user_id !== check.userId)
      throw codeRefusal({ ok: false, reason: "no_code", channel: check.channel }, "/account/otp_attempt");
    return this.succeed(user, methodOf(check.channel), caller);
  }

  async withPassword(email: string, password: string, caller: Caller): Promise<SignedIn> {
    await this.countAttempt(email, caller);
    const user = await findUserByEmail(this.deps.store, email);
    // Verified even for an unknown address (against a decoy), so the answer takes the same time.
    const matches = await passwordMatches(this.deps.pool, user?.user_id ?? null, password);
    if (!user || !matches) {
      await this.recordFailure(email, "password", "wrong_password", caller);
      throw new SignInRefused(
        "invalid_credentials",
        "The e-mail or the password is not correct.",
        "/account/password",
      );
    }
    return this.succeed(user, "password", caller);
  }

  /** The session a sign-out ends (bearer tokens have none: a new token replaces the old one). */
  sessionOf(principal: Principal): string {
    if (!principal.sessionId)
      throw new IllegalState(
        "API tokens have no session to end; issue a new token to retire this one",
        "no_session",
      );
    return principal.sessionId;
  }

  async recordSignOut(principal: Principal, context: RequestContext): Promise<Position | null> {
    const { position } = await runAccountCommand(
      this.deps.store,
      principal.userId,
      { type: "RecordSignOut" },
      metadataFor(context),
    );
    return position;
  }

  private async succeed(user: ActiveUser, method: SignInMethod, caller: Caller): Promise<SignedIn> {
    await this.limiter.clear(this.failureKey(user.email, caller));
    // Only failures count against a client: a sign-in that worked gives its attempt back.
    const now = this.deps.now();
    await this.limiter.refund(`sign_in:ip:${clientOf(caller.ip)}`, this.limits.attemptsPerIp, now);
    if (method !== "password") {
      // The code was the owner's: asking for it was no abuse, so it does not count towards the code limits.
      const keys = this.codeRequestKeys(user.email, caller);
      await this.limiter.clear(keys.perAddress);
      await this.limiter.refund(keys.perClient, this.limits.codesPerIp, now);
    }
    const { user: signedIn, position } = await runAccountCommand(
      this.deps.store,
      user.user_id,
      { type: "RecordSignIn", method, ip: caller.ip, userAgent: caller.userAgent },
      metadataFor({ ...caller.context, principal: principalOf(user) }),
    );
    if (!position) throw new Error("UserSignedIn was not written");
    return {
      user: signedIn,
      response: {
        account: await accountInfoOf(this.deps.store, signedIn),
        onboarding: signedIn.onboarding,
        position,
      },
    };
  }

  private async recordFailure(
    email: string,
    method: SignInMethod,
    reason: SignInFailureReason,
    caller: Caller,
  ) {
    metrics.signInFailed(method, reason);
    const user = await findUserByEmail(this.deps.store, email);
    if (!user) return;
    await runAccountCommand(
      this.deps.store,
      user.user_id,
      { type: "RecordFailedSignIn", method, reason, ip: caller.ip },
      metadataFor(caller.context, { agency_id: user.agency_id, company_id: user.company_ids[0] ?? null }),
    );
  }
}

export interface SignedIn {
  user: ActiveUser;
  response: SignInResponse;
}
