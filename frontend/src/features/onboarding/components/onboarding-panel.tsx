import { Container, Paper, Stack, Stepper, Text, Title } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useActorRef, useSelector } from "@xstate/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { dismissErrors, notify } from "../../../lib/notifications.ts";
import { type Session, safeRedirect, sessionQueryOptions } from "../../../lib/session.ts";
import { onboardingMachine } from "../machines/onboarding.machine.ts";
import { AccountInfoForm } from "./account-info-form.tsx";
import { PrivacyAcceptance } from "./privacy-acceptance.tsx";

export interface OnboardingPanelProps {
  session: Session & { onboarding: "initial" | "privacy" };
  redirectTo?: string;
}

/** Onboarding: the account info, then the privacy acceptance; then on to where the user was going. */
export function OnboardingPanel({ session, redirectTo }: OnboardingPanelProps) {
  const { t } = useTranslation("onboarding");
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { account } = session;
  const onboarding = useActorRef(onboardingMachine, {
    input: {
      onboarding: session.onboarding,
      info: {
        first_name: account.first_name,
        last_name: account.last_name,
        phone: account.phone ?? "",
        language: account.language,
      },
    },
  });
  const step = useSelector(onboarding, (snapshot) =>
    snapshot.matches("done") ? 2 : snapshot.matches("privacy") ? 1 : 0,
  );
  const submitting = useSelector(onboarding, (snapshot) => snapshot.matches({ initial: "submitting" }));
  const accepting = useSelector(onboarding, (snapshot) => snapshot.matches({ privacy: "accepting" }));
  const info = useSelector(onboarding, (snapshot) => snapshot.context.info);
  const errors = useSelector(onboarding, (snapshot) => snapshot.context.fieldErrors);

  useEffect(() => {
    if (step !== 2) return;
    let left = false;
    void queryClient.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 }).then(() => {
      if (left) return;
      notify({ text: t("welcome", { name: info.first_name }), type: "success" });
      // Done: straight to work, on the search (unless the agent came from another screen).
      return navigate({ href: safeRedirect(redirectTo) ?? "/search", replace: true });
    });
    return () => {
      left = true;
    };
  }, [step, queryClient, navigate, redirectTo, t, info.first_name]);

  return (
    <Container size={640} py={48}>
      <Stack gap="xl">
        <Stack gap={6}>
          <Title order={1} fz={28}>
            {t("title")}
          </Title>
          <Text c="dimmed">{t("lead", { email: account.email })}</Text>
        </Stack>
        <Stepper active={step} size="sm" allowNextStepsSelect={false}>
          <Stepper.Step label={t("steps.info")} description={t("steps.info_description")} />
          <Stepper.Step label={t("steps.privacy")} description={t("steps.privacy_description")} />
        </Stepper>
        <Paper withBorder shadow="xs" radius="md" p="xl">
          {step === 0 ? (
            <Stack gap="lg">
              <Stack gap={6}>
                <Title order={2} fz={20}>
                  {t("info.title")}
                </Title>
                <Text fz="sm" c="dimmed">
                  {t("info.lead")}
                </Text>
              </Stack>
              <AccountInfoForm
                info={info}
                errors={errors}
                busy={submitting}
                onSubmit={(submitted) => {
                  dismissErrors();
                  onboarding.send({ type: "info.submit", info: submitted });
                }}
              />
            </Stack>
          ) : (
            <PrivacyAcceptance
              busy={accepting || step === 2}
              onAccept={() => {
                dismissErrors();
                onboarding.send({ type: "terms.accept" });
              }}
            />
          )}
        </Paper>
      </Stack>
    </Container>
  );
}
