import { Button, Group, Select, Stack } from "@mantine/core";
import { IconWorld } from "@tabler/icons-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { PersonFields } from "../../../components/person-fields.tsx";
import { isLanguage, LANGUAGES } from "../../../lib/i18n.ts";
import { LANGUAGE_NAMES } from "../../../lib/language-names.ts";
import type { AccountInfo } from "../api/complete-account-info.ts";

export interface AccountInfoFormProps {
  info: AccountInfo;
  errors: Partial<Record<keyof AccountInfo, string>>;
  busy: boolean;
  onSubmit: (info: AccountInfo) => void;
}

/** Onboarding's first step: who the user is and how to reach them. */
export function AccountInfoForm({ info: initial, errors, busy, onSubmit }: AccountInfoFormProps) {
  const { t } = useTranslation("onboarding");
  const [info, setInfo] = useState(initial);
  const field = (name: "first_name" | "last_name" | "phone") => ({
    name,
    value: info[name],
    error: errors[name],
    disabled: busy,
    onChange: (event: { currentTarget: HTMLInputElement }) =>
      setInfo({ ...info, [name]: event.currentTarget.value }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(info);
  };

  return (
    <form onSubmit={submit}>
      <Stack gap="md">
        <PersonFields
          field={field}
          labels={{
            first_name: t("info.first_name"),
            last_name: t("info.last_name"),
            phone: t("info.phone"),
            phone_description: t("info.phone_description"),
            phone_placeholder: t("info.phone_placeholder"),
          }}
          autoFocus
        />
        <Select
          label={t("info.language")}
          description={t("info.language_description")}
          data={LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))}
          value={info.language}
          onChange={(value) => {
            if (isLanguage(value)) setInfo({ ...info, language: value });
          }}
          allowDeselect={false}
          leftSection={<IconWorld size={16} />}
          error={errors.language}
          disabled={busy}
        />
        <Group justify="flex-end" mt="xs">
          <Button type="submit" loading={busy}>
            {t("info.submit")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
