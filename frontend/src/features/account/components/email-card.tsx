import { Alert, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { ONE_TIME_CODE } from "@skyward/contracts/account";
import { SignInCodeForm, SignInEmail, SignInEmailForm } from "@skyward/contracts/sign-in-form";
import { IconMail } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useActorRef, useSelector } from "@xstate/react";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import * as z from "zod/mini";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { dismissErrors, notify } from "../../../lib/notifications.ts";
import { personalData } from "../../../lib/personal-data.ts";
import { SESSION_QUERY_KEY } from "../../../lib/session.ts";
import { emailChangeMachine } from "../machines/email-change.machine.ts";
import { SectionCard } from "./section-card.tsx";

/** The sign-in address, changed only with a code sent to the new address. */
export function EmailCard({ email }: { email: string }) {
  const { t } = useTranslation("account");
  const queryClient = useQueryClient();
  const change = useActorRef(emailChangeMachine);
  const state = useSelector(change, (snapshot) =>
    snapshot.matches("editing") || snapshot.matches("requesting")
      ? "editing"
      : snapshot.matches("confirming")
        ? "confirming"
        : snapshot.matches("changed")
          ? "changed"
          : "idle",
  );
  const requesting = useSelector(change, (snapshot) => snapshot.matches("requesting"));
  const verifying = useSelector(change, (snapshot) => snapshot.matches({ confirming: "verifying" }));
  const resending = useSelector(change, (snapshot) => snapshot.matches({ confirming: "resending" }));
  const { newEmail, refusals, codesSent } = useSelector(change, (snapshot) => snapshot.context);
  // The new address and its code follow the sign-in fields' rules (the same address and code checks).
  const { t: tField } = useTranslation("sign-in-form");
  const emailForm = useForm({ initialValues: { email: "" }, validate: zod4Resolver(SignInEmailForm) });
  const codeForm = useForm({ initialValues: { code: "" }, validate: zod4Resolver(SignInCodeForm) });

  useEffect(() => {
    if (state !== "changed") return;
    notify({ text: t("email.changed", { email: newEmail }), type: "success" });
    void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
  }, [state, newEmail, queryClient, t]);

  // Each refusal or new code starts the code field afresh.
  const { reset: resetCode } = codeForm;
  useEffect(() => {
    if (refusals > 0 || codesSent > 0) resetCode();
  }, [refusals, codesSent, resetCode]);

  const start = () => {
    emailForm.reset();
    change.send({ type: "change.start" });
  };
  const requestCode = emailForm.onSubmit(({ email }) => {
    dismissErrors();
    change.send({ type: "email.submit", email: z.parse(SignInEmail, email) });
  }, focusFirstError);
  const confirm = codeForm.onSubmit(({ code }) => {
    dismissErrors();
    change.send({ type: "code.submit", code });
  }, focusFirstError);
  const cancel = () => change.send({ type: "change.cancel" });

  return (
    <SectionCard
      title={t("email.title")}
      description={t("email.description")}
      aside={
        state === "idle" || state === "changed" ? (
          <Button variant="default" size="xs" onClick={start}>
            {t("email.change")}
          </Button>
        ) : null
      }
    >
      <Group gap={8} wrap="nowrap">
        <IconMail size={16} color="var(--mantine-color-dimmed)" />
        <Text fw={500} data-testid="account-email" {...personalData}>
          {email}
        </Text>
      </Group>
      {state === "editing" ? (
        <form onSubmit={requestCode} noValidate>
          <Stack gap="sm">
            <TextInput
              type="email"
              name="new_email"
              {...personalData}
              label={t("email.new_label")}
              description={t("email.new_description")}
              autoComplete="email"
              required
              autoFocus
              {...emailForm.getInputProps("email")}
              error={emailForm.errors.email ? tField("email_invalid") : undefined}
              disabled={requesting}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={cancel} disabled={requesting}>
                {t("email.cancel")}
              </Button>
              <Button type="submit" loading={requesting}>
                {t("email.send_code")}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
      {state === "confirming" ? (
        <form onSubmit={confirm} noValidate>
          <Stack gap="sm">
            <Alert variant="light" color="blue" icon={<IconMail size={18} />}>
              {t("email.code_sent", { email: newEmail, minutes: ONE_TIME_CODE.ttlMinutes })}
            </Alert>
            <TextInput
              name="email_code"
              label={t("email.code_label")}
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={ONE_TIME_CODE.digits}
              required
              autoFocus
              {...codeForm.getInputProps("code")}
              onChange={(event) =>
                codeForm.setFieldValue("code", event.currentTarget.value.replace(/\D/g, ""))
              }
              error={
                codeForm.errors.code ? tField("code_invalid", { digits: ONE_TIME_CODE.digits }) : undefined
              }
              disabled={verifying}
              styles={{
                input: { letterSpacing: "0.3em", fontFamily: "var(--mantine-font-family-monospace)" },
              }}
            />
            <Group justify="space-between" gap="sm">
              <Button
                variant="subtle"
                size="compact-sm"
                onClick={() => change.send({ type: "code.resend" })}
                loading={resending}
                disabled={verifying}
              >
                {t("email.resend")}
              </Button>
              <Group gap="sm">
                <Button variant="default" onClick={cancel} disabled={verifying}>
                  {t("email.cancel")}
                </Button>
                <Button type="submit" loading={verifying} disabled={resending}>
                  {t("email.confirm")}
                </Button>
              </Group>
            </Group>
          </Stack>
        </form>
      ) : null}
    </SectionCard>
  );
}
