import { Button, Group, Select, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { IconPhone, IconWorld } from "../../../components/ui/icons.tsx";
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
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            {...field("first_name")}
            label={t("info.first_name")}
            autoComplete="given-name"
            required
            autoFocus
          />
          <TextInput
            {...field("last_name")}
            label={t("info.last_name")}
            autoComplete="family-name"
            required
          />
        </SimpleGrid>
        <TextInput
          {...field("phone")}
          type="tel"
          label={t("info.phone")}
          description={t("info.phone_description")}
          placeholder={t("info.phone_placeholder")}
          autoComplete="tel"
          leftSection={<IconPhone size={16} />}
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
