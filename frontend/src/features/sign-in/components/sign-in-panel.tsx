import { Anchor, Center, Loader, Paper, Stack, Text } from "@mantine/core";
import type { SignInResponse } from "@skyward/contracts/account";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useActorRef, useSelector } from "@xstate/react";
import { lazy, Suspense, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { setSiteLanguage, useSiteLanguage } from "../../../lib/i18n.ts";
import { dismissErrors } from "../../../lib/notifications.ts";
import { homeFor, startFreshSession } from "../../../lib/session.ts";
import { taggedText } from "../../../lib/tagged-text.tsx";
import { BUSY_TAGS, isCodeSpent, loginMachine } from "../machines/login.machine.ts";
import { EmailStep } from "./email-step.tsx";

/**
 * The steps after the e-mail (the code, the password) are no part of the page's first load: their code loads once
 * the visitor starts on the e-mail step (a key typed, a language picked, the browser's autofill) or sends it, so it
 * is in before the server answers. Should it still be on its way then, the e-mail step stays on screen, busy.
 */
const loadLaterSteps = () => import("./later-steps.ts");
const CodeStep = lazy(() => loadLaterSteps().then((module) => ({ default: module.CodeStep })));
const PasswordStep = lazy(() => loadLaterSteps().then((module) => ({ default: module.PasswordStep })));
// Fetched ahead of use: a failure shows once a step needs the code (the route's error page), not before.
const preloadLaterSteps = () => void loadLaterSteps().catch(() => undefined);

/** Opens the page the account belongs on once signed in: onboarding first, else where the visitor was going. */
function useLeaveWhenSignedIn(signedIn: SignInResponse | undefined, redirectTo: string | undefined) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    if (!signedIn) return;
    let left = false;
    void startFreshSession(queryClient).then(() => {
      if (left) return;
      const home = homeFor(signedIn, redirectTo);
      return "to" in home
        ? navigate({ to: home.to, search: home.search, replace: true })
        : navigate({ href: home.href, replace: true });
    });
    return () => {
      left = true;
    };
  }, [signedIn, redirectTo, queryClient, navigate]);
}

/** The sign-in screen: each login UI state shows its own step. */
export function SignInPanel({ redirectTo }: { redirectTo?: string }) {
  const { t } = useTranslation("sign-in");
  const siteLanguage = useSiteLanguage();
  const login = useActorRef(loginMachine, { input: { language: siteLanguage } });

  const step = useSelector(login, (snapshot) =>
    snapshot.matches("otp")
      ? "otp"
      : snapshot.matches("voice-otp")
        ? "voice-otp"
        : snapshot.matches("password")
          ? "password"
          : snapshot.matches("signedIn")
            ? "signedIn"
            : "initial",
  );
  const busy = useSelector(login, (snapshot) => BUSY_TAGS.find((tag) => snapshot.hasTag(tag)) ?? null);
  const context = useSelector(login, (snapshot) => snapshot.context);
  const signedIn = useSelector(login, (snapshot) => snapshot.output);
  useLeaveWhenSignedIn(signedIn, redirectTo);

  const changeEmail = () => login.send({ type: "email.change" });
  const emailStep = (stepBusy: boolean) => (
    <EmailStep
      email={context.email}
      language={siteLanguage}
      busy={stepBusy}
      onLanguageChange={(language) => {
        void setSiteLanguage(language);
        login.send({ type: "language.change", language });
      }}
      onSubmit={(email, language) => {
        preloadLaterSteps();
        dismissErrors();
        login.send({ type: "email.submit", email, language });
      }}
      onInput={preloadLaterSteps}
    />
  );

  return (
    <Center mih="calc(100vh - 56px)" p="md">
      <Stack w="100%" maw={420} gap="md">
        <Paper withBorder shadow="sm" radius="md" p="xl" aria-busy={busy !== null || step === "signedIn"}>
          {/* The e-mail step, busy, while the next step's code is on its way (its own aria-busy: the card's is not). */}
          <Suspense fallback={<div aria-busy="true">{emailStep(true)}</div>}>
            {step === "initial" ? (
              emailStep(busy !== null)
            ) : step === "otp" || step === "voice-otp" ? (
              <CodeStep
                channel={step}
                email={context.email}
                codesSent={context.codesSent}
                busy={busy === "starting" ? null : busy}
                codeSpent={isCodeSpent(context.refusal)}
                refused={context.refusal !== null}
                refusals={context.refusals}
                onSubmit={(code) => {
                  dismissErrors();
                  login.send({ type: "code.submit", code });
                }}
                onResend={() => login.send({ type: "code.resend" })}
                onCall={() => login.send({ type: "call.request" })}
                onUsePassword={() => login.send({ type: "password.use" })}
                onChangeEmail={changeEmail}
              />
            ) : step === "password" ? (
              <PasswordStep
                email={context.email}
                busy={busy === "verifying"}
                refusals={context.refusals}
                codeAvailable={context.authMethod === "otp"}
                onSubmit={(password) => {
                  dismissErrors();
                  login.send({ type: "password.submit", password });
                }}
                onUseCode={() => login.send({ type: "code.use" })}
                onChangeEmail={changeEmail}
              />
            ) : (
              <Stack align="center" gap="sm" py="lg" role="status">
                <Loader size="sm" />
                <Text c="dimmed" fz="sm">
                  {t("signing_in")}
                </Text>
              </Stack>
            )}
          </Suspense>
        </Paper>
        <Text c="dimmed" fz="xs" ta="center" px="md">
          {taggedText(t("legal"), {
            terms: (text) => (
              <Anchor
                fz="xs"
                underline="always"
                renderRoot={(props) => (
                  <Link {...props} to="/legal/$document" params={{ document: "website-terms" }} />
                )}
              >
                {text}
              </Anchor>
            ),
            privacy: (text) => (
              <Anchor
                fz="xs"
                underline="always"
                renderRoot={(props) => (
                  <Link {...props} to="/legal/$document" params={{ document: "privacy-policy" }} />
                )}
              >
                {text}
              </Anchor>
            ),
          })}
        </Text>
      </Stack>
    </Center>
  );
}
