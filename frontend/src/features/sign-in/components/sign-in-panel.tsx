import { Anchor, Center, Loader, Paper, Stack, Text } from "@mantine/core";
import type { SignInResponse } from "@skyward/contracts/account";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useActorRef, useSelector } from "@xstate/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { setSiteLanguage, useSiteLanguage } from "../../../lib/i18n.ts";
import { dismissErrors } from "../../../lib/notifications.ts";
import { homeFor, startFreshSession } from "../../../lib/session.ts";
import { taggedText } from "../../../lib/tagged-text.tsx";
import { BUSY_TAGS, isCodeSpent, loginMachine } from "../machines/login.machine.ts";
import { CodeStep } from "./code-step.tsx";
import { EmailStep } from "./email-step.tsx";
import { PasswordStep } from "./password-step.tsx";

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

  return (
    <Center mih="calc(100vh - 56px)" p="md">
      <Stack w="100%" maw={420} gap="md">
        <Paper withBorder shadow="sm" radius="md" p="xl" aria-busy={busy !== null || step === "signedIn"}>
          {step === "initial" ? (
            <EmailStep
              email={context.email}
              language={siteLanguage}
              busy={busy !== null}
              onLanguageChange={(language) => {
                void setSiteLanguage(language);
                login.send({ type: "language.change", language });
              }}
              onSubmit={(email, language) => {
                dismissErrors();
                login.send({ type: "email.submit", email, language });
              }}
            />
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
