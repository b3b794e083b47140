import { Button, Group, Select, Stack } from "@mantine/core";
import { useForm } from "@mantine/form";
import { Language } from "@skyward/contracts/ids";
import { IconWorld } from "@tabler/icons-react";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import {
  PersonFields,
  personFieldsOf,
  personRules,
  usePersonValidation,
} from "../../../components/person-fields.tsx";
import { LANGUAGES } from "../../../lib/i18n.ts";
import { LANGUAGE_NAMES } from "../../../lib/language-names.ts";
import type { AccountInfo } from "../api/complete-account-info.ts";

export interface AccountInfoFormProps {
  info: AccountInfo;
  errors: Partial<Record<keyof AccountInfo, string>>;
  busy: boolean;
  onSubmit: (info: AccountInfo) => void;
}

/** The contract's rules for onboarding's first step (`CompleteAccountInfoRequest`); an empty phone means none. */
const resolveAccountInfo = zod4Resolver(z.object({ ...personRules, language: Language }));

/** Onboarding's first step: who the user is and how to reach them. */
export function AccountInfoForm({ info, errors, busy, onSubmit }: AccountInfoFormProps) {
  const { t } = useTranslation("onboarding");
  const form = useForm<AccountInfo>({
    initialValues: info,
    validate: usePersonValidation(resolveAccountInfo),
  });
  const { setErrors } = form;
  // What the server refused is shown beside its field, like the form's own checks.
  useEffect(() => setErrors(errors), [errors, setErrors]);

  return (
    <form onSubmit={form.onSubmit((values) => onSubmit(values))} noValidate>
      <Stack gap="md">
        <PersonFields
          field={personFieldsOf(form, busy)}
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
          {...form.getInputProps("language")}
          allowDeselect={false}
          leftSection={<IconWorld size={16} />}
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
