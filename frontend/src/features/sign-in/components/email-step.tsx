import { Button, NativeSelect, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { signInEmail } from "@skyward/contracts/sign-in-checks";
import { IconWorld } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { isLanguage, LANGUAGES, type Language } from "../../../lib/i18n.ts";
import { LANGUAGE_NAMES } from "../../../lib/language-names.ts";
import { StepHeader } from "./step-header.tsx";

export interface EmailStepProps {
  email: string;
  language: Language;
  busy: boolean;
  onLanguageChange: (language: Language) => void;
  onSubmit: (email: string, language: Language) => void;
  /** The visitor typed or picked something on the step (the browser's autofill too). */
  onInput?: () => void;
}

/** The login UI's initial state: the work e-mail and the language. */
export function EmailStep({
  email: initialEmail,
  language,
  busy,
  onLanguageChange,
  onSubmit,
  onInput,
}: EmailStepProps) {
  const { t } = useTranslation("sign-in");
  const { t: tForm } = useTranslation("sign-in-form");
  const form = useForm({
    initialValues: { email: initialEmail },
    validate: { email: (typed) => (signInEmail(typed) === null ? "email_invalid" : null) },
  });

  return (
    // noValidate: the form's own check says what is wrong in the interface language, not the browser's.
    <form
      noValidate
      onInput={onInput}
      onSubmit={form.onSubmit(
        (values) => onSubmit(signInEmail(values.email) ?? values.email, language),
        focusFirstError,
      )}
    >
      <Stack gap="lg">
        <StepHeader title={t("title")} lead={t("lead")} />
        <Stack gap="md">
          <TextInput
            type="email"
            name="email"
            label={t("email.label")}
            placeholder={t("email.placeholder")}
            autoComplete="username"
            required
            autoFocus
            {...form.getInputProps("email")}
            error={form.errors.email ? tForm("email_invalid") : undefined}
            disabled={busy}
          />
          {/* The browser's own select: keyboard and screen readers as the platform has them, and no combobox code
              on the first page. */}
          <NativeSelect
            label={t("language.label")}
            description={t("language.description")}
            data={LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))}
            value={language}
            onChange={(event) => {
              const value = event.currentTarget.value;
              if (isLanguage(value)) onLanguageChange(value);
            }}
            leftSection={<IconWorld size={16} />}
            disabled={busy}
          />
        </Stack>
        <Button type="submit" fullWidth loading={busy}>
          {t("continue")}
        </Button>
      </Stack>
    </form>
  );
}
