import {
  AcceptTermsRequest,
  ChangeEmailRequest,
  CompleteAccountInfoRequest,
  SendVoiceOtpRequest,
  SetPhoneRequest,
  SignInRequest,
  StartSignInRequest,
  UpdateAccountDetailsRequest,
  UpdateLocaleRequest,
} from "@skyward/contracts/account";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import { requirePrincipal, sha256 } from "@skyward/infra/http/auth";
import type { Principal } from "@skyward/infra/http/context";
import { Forbidden, InvalidInput } from "@skyward/infra/http/errors";
import { CSRF_COOKIE, readCookie } from "@skyward/infra/http/middleware";
import { parseInput } from "@skyward/infra/http/validate";
import { type Request, type RequestHandler, type Response, Router } from "express";
import type { CommandDeps } from "../deps.ts";
import { notificationPorts } from "../notifications/ports.ts";
import { AccountService } from "./account.ts";
import { type AccountOutcome, runAccountCommand } from "./commands.ts";
import type { AccountCommand } from "./decide.ts";
import { profileOf } from "./decide.ts";
import { closeSession, openSession } from "./sessions.ts";
import { type Caller, SignInService } from "./sign-in.ts";

const callerOf = (req: Request): Caller => ({
  context: req.context,
  ip: req.ip ?? null,
  userAgent: req.get("user-agent")?.slice(0, 300) ?? null,
  // Hashed: the cookie itself is the CSRF secret. Callers without one (bearer clients) share one holder.
  browser: sha256(readCookie(req, CSRF_COOKIE) ?? "no-browser").slice(0, 32),
});

const respond = (res: Response, outcome: AccountOutcome) =>
  res.json({ data: profileOf(outcome.user), position: outcome.position });

/** Sign-in, sign-out, onboarding and the caller's own account (spec section 7, "Account and sign-in"). */
export function identityRoutes(deps: CommandDeps): Router {
  const router = Router();
  const ports = notificationPorts(deps);
  const signIn = new SignInService(deps, ports);
  const account = new AccountService(deps, ports, signIn);
  const cookies = { secure: deps.config.NODE_ENV === "production" };

  router.post("/start_sign_in", async (req, res) => {
    const { account } = parseInput(StartSignInRequest, req.body);
    res.json(await signIn.start(account.email, account.language, callerOf(req)));
  });

  router.post("/send_voice_otp", async (req, res) => {
    const { account } = parseInput(SendVoiceOtpRequest, req.body);
    res.json(await signIn.sendVoiceCode(account.email, callerOf(req)));
  });

  router.post("/sign_in", async (req, res) => {
    const { account } = parseInput(SignInRequest, req.body);
    const signedIn =
      account.password !== undefined
        ? await signIn.withPassword(account.email, account.password, callerOf(req))
        : await signIn.withCode(account.email, account.otp_attempt ?? "", callerOf(req));
    await openSession(
      deps.pool,
      req,
      res,
      { userId: signedIn.user.user_id, position: signedIn.response.position, now: deps.now() },
      cookies,
    );
    res.json(signedIn.response);
  });

  router.delete("/sign_out", async (req, res) => {
    const principal = requirePrincipal(req);
    // The session ends first: a failure to record it must not leave the session usable.
    await closeSession(deps.pool, res, signIn.sessionOf(principal), cookies);
    res.json({ data: null, position: await signIn.recordSignOut(principal, req.context) });
  });

  /** Routes whose whole work is one command on the caller's own user stream. */
  const ownAccount =
    (command: (req: Request) => AccountCommand): RequestHandler =>
    async (req, res) => {
      const principal = requirePrincipal(req);
      respond(
        res,
        await runAccountCommand(deps.store, principal.userId, command(req), metadataFor(req.context)),
      );
    };

  const completeAccountInfo = ownAccount((req) => ({
    type: "CompleteAccountInfo",
    info: parseInput(CompleteAccountInfoRequest, req.body).account,
  }));
  router.put("/onboarding", completeAccountInfo);
  router.post("/account/complete", completeAccountInfo);

  router.put(
    "/account/terms",
    ownAccount((req) => ({
      type: "AcceptTerms",
      version: parseInput(AcceptTermsRequest, req.body).terms.version,
    })),
  );
  router.put(
    "/account/details",
    ownAccount((req) => ({
      type: "UpdateAccountDetails",
      changes: parseInput(UpdateAccountDetailsRequest, req.body).account,
    })),
  );
  router.put(
    "/account/details/update_locale",
    ownAccount((req) => ({
      type: "ChangeLocale",
      language: parseInput(UpdateLocaleRequest, req.body).language,
    })),
  );
  const setPhone = ownAccount((req) => ({
    type: "ChangePhone",
    phone: parseInput(SetPhoneRequest, req.body).phone,
  }));
  router.post("/account/phone", setPhone);
  router.put("/account/phone", setPhone);

  router.put("/account/email", async (req, res) => {
    const principal = requirePrincipal(req);
    const { email, otp_attempt } = parseInput(ChangeEmailRequest, req.body);
    if (otp_attempt === undefined) {
      const { pending_email, position } = await account.requestEmailChange(principal, email, req.context);
      res.json({ data: { pending_email }, position });
      return;
    }
    respond(res, await account.confirmEmailChange(principal, email, otp_attempt, req.context));
  });

  /**
   * Creating, replacing and revoking the token take a signed-in session: a token (perhaps a stolen one) must not
   * replace or withdraw itself and so lock its owner out.
   */
  const signedInPerson = (req: Request): Principal => {
    const principal = requirePrincipal(req);
    if (principal.sessionId === null)
      throw new Forbidden(
        "API tokens are issued and revoked from a signed-in session (the account page), not with a token",
        "session_required",
      );
    return principal;
  };

  router.get("/account/api_token", async (req, res) => {
    res.json(await account.apiTokenStatus(requirePrincipal(req)));
  });

  router.delete("/account/api_token", async (req, res) => {
    const principal = signedInPerson(req);
    res.json({ data: null, ...(await account.revokeApiToken(principal, req.context)) });
  });

  router.put("/account/api_token", async (req, res) => {
    const principal = signedInPerson(req);
    // A replayable answer would have to be stored, token included; the token exists only as a hash.
    if (req.get("idempotency-key") !== undefined) {
      throw new InvalidInput(
        [
          {
            pointer: "/Idempotency-Key",
            detail: "is not accepted: a new token is shown only once",
            location: "header",
          },
        ],
        400,
      );
    }
    const { token, position } = await account.issueApiToken(principal, req.context);
    res.json({ data: { token }, position });
  });

  return router;
}
