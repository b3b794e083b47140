import { Button, Divider, PasswordInput, Stack } from "@mantine/core";
import { IconMail } from "@tabler/icons-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { EmailBadge, StepHeader } from "./step-header.tsx";

export interface PasswordStepProps {
  email: string;
  busy: boolean;
  refusals: number;
  /** The account signs in by code: the password is the alternative, and the code stays on offer. */
  codeAvailable: boolean;
  onSubmit: (password: string) => void;
  onUseCode: () => void;
  onChangeEmail: () => void;
}

/** The login UI's password state. */
export function PasswordStep(props: PasswordStepProps) {
  const { email, busy, refusals, codeAvailable } = props;
  const { t } = useTranslation("sign-in");
  const [password, setPassword] = useState("");
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (refusals === 0) return;
    setPassword("");
    input.current?.focus();
  }, [refusals]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit(password);
  };

  return (
    <form onSubmit={submit}>
      <Stack gap="lg">
        <StepHeader title={t("password.title")} lead={t("password.lead")} />
        <EmailBadge email={email} onChange={props.onChangeEmail} />
        {/* Lets the browser's password manager pair the password with the address. */}
        <input type="email" name="email" autoComplete="username" value={email} readOnly hidden />
        <PasswordInput
          ref={input}
          name="password"
          label={t("password.label")}
          autoComplete="current-password"
          required
          autoFocus
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          disabled={busy}
          error={refusals > 0 && password === ""}
        />
        <Button type="submit" fullWidth loading={busy}>
          {t("submit")}
        </Button>
        {codeAvailable ? (
          <>
            <Divider label={t("or")} labelPosition="center" />
            <Button
              variant="default"
              fullWidth
              onClick={props.onUseCode}
              disabled={busy}
              leftSection={<IconMail size={16} />}
            >
              {t("actions.use_code")}
            </Button>
          </>
        ) : null}
      </Stack>
    </form>
  );
}
