import { Alert, Button, Divider, Group, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { ONE_TIME_CODE } from "@skyward/contracts/one-time-code";
import { isSignInCode } from "@skyward/contracts/sign-in-checks";
import { IconLock, IconMail, IconPhone } from "@tabler/icons-react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { EmailBadge } from "./email-badge.tsx";
import { StepHeader } from "./step-header.tsx";

export interface CodeStepProps {
  /** otp: the code came by e-mail; voice-otp: it is read out on a phone call. */
  channel: "otp" | "voice-otp";
  email: string;
  codesSent: number;
  /** What is in flight: nothing, the code being checked, a new code or a call being requested. */
  busy: "verifying" | "resending" | "calling" | null;
  /** The code no longer works (too many wrong attempts, expired): only a new one helps. */
  codeSpent: boolean;
  /** The last code was refused (cleared once a new code is sent). */
  refused: boolean;
  /** Bumps at each refusal: the field is cleared for the next try. */
  refusals: number;
  onSubmit: (code: string) => void;
  onResend: () => void;
  onCall: () => void;
  onUsePassword: () => void;
  onChangeEmail: () => void;
}

/** The login UI's otp and voice-otp states: the six-digit code, and the ways to get another. */
export function CodeStep(props: CodeStepProps) {
  const { channel, email, codesSent, busy, codeSpent, refused, refusals } = props;
  const { t } = useTranslation("sign-in");
  const { t: tForm } = useTranslation("sign-in-form");
  const form = useForm({
    initialValues: { code: "" },
    validate: { code: (typed) => (isSignInCode(typed) ? null : "code_invalid") },
  });
  const input = useRef<HTMLInputElement>(null);

  // A refused code is of no further use: clear the field for the next try, as after a new code.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on each refusal or new code only (the form is new each render)
  useEffect(() => {
    if (refusals === 0 && codesSent === 0) return;
    form.setFieldValue("code", "");
    form.clearErrors();
    input.current?.focus();
  }, [refusals, codesSent]);

  const code = form.getValues().code;
  const byPhone = channel === "voice-otp";
  const lead =
    byPhone && busy === "calling"
      ? t("voice.calling")
      : byPhone
        ? t("voice.sent")
        : codesSent > 1
          ? t("otp.resent", { minutes: ONE_TIME_CODE.ttlMinutes })
          : t("otp.sent", { minutes: ONE_TIME_CODE.ttlMinutes });

  return (
    // noValidate: the form's own check says what is wrong in the interface language, not the browser's.
    <form noValidate onSubmit={form.onSubmit((values) => props.onSubmit(values.code), focusFirstError)}>
      <Stack gap="lg">
        <StepHeader title={byPhone ? t("voice.title") : t("otp.title")} lead={lead} />
        <EmailBadge email={email} onChange={props.onChangeEmail} />
        {codeSpent ? (
          <Alert color="red" variant="light" icon={<IconLock size={18} />} title={t("spent.title")}>
            {t("spent.text")}
          </Alert>
        ) : null}
        <TextInput
          ref={input}
          name="code"
          label={t("code.label")}
          description={t("code.description", { digits: ONE_TIME_CODE.digits })}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={ONE_TIME_CODE.digits}
          required
          autoFocus
          {...form.getInputProps("code")}
          onChange={(event) => form.setFieldValue("code", event.currentTarget.value.replace(/\D/g, ""))}
          disabled={busy === "verifying" || busy === "calling"}
          // Red after a refusal until a new code is typed; the reason is in the notification.
          error={
            form.errors.code
              ? tForm("code_invalid", { digits: ONE_TIME_CODE.digits })
              : refused && !codeSpent && code === ""
          }
          size="md"
          styles={{
            input: {
              fontSize: 22,
              textAlign: "center",
              letterSpacing: "0.5em",
              fontVariantNumeric: "tabular-nums",
              fontFamily: "var(--mantine-font-family-monospace)",
            },
          }}
        />
        <Button
          type="submit"
          fullWidth
          loading={busy === "verifying"}
          disabled={busy !== null && busy !== "verifying"}
        >
          {t("submit")}
        </Button>
        <Group justify="center" gap="xs">
          <Button
            variant={codeSpent ? "light" : "subtle"}
            size="compact-sm"
            onClick={props.onResend}
            loading={busy === "resending"}
            disabled={busy !== null && busy !== "resending"}
            leftSection={<IconMail size={14} />}
          >
            {byPhone ? t("voice.email_instead") : t("actions.resend")}
          </Button>
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={props.onCall}
            disabled={busy !== null}
            leftSection={<IconPhone size={14} />}
          >
            {byPhone ? t("voice.call_again") : t("actions.call")}
          </Button>
        </Group>
        <Divider label={t("or")} labelPosition="center" />
        <Button
          variant="default"
          fullWidth
          onClick={props.onUsePassword}
          disabled={busy !== null}
          leftSection={<IconLock size={16} />}
        >
          {t("actions.use_password")}
        </Button>
      </Stack>
    </form>
  );
}
