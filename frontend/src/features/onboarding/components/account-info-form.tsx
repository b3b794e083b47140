import { Button, Group, Select, Stack } from "@mantine/core";
import { useForm } from "@mantine/form";
import { PersonName, Phone } from "@skyward/contracts/account";
import { Language } from "@skyward/contracts/ids";
import { IconWorld } from "@tabler/icons-react";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { PersonFields } from "../../../components/person-fields.tsx";
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
const accountInfoSchema = z.object({
  first_name: PersonName,
  last_name: PersonName,
  phone: z.union([z.literal(""), Phone]),
  language: Language,
});
const resolveAccountInfo = zod4Resolver(accountInfoSchema);

/** Onboarding's first step: who the user is and how to reach them. */
export function AccountInfoForm({ info, errors, busy, onSubmit }: AccountInfoFormProps) {
  const { t } = useTranslation("onboarding");
  const form = useForm<AccountInfo>({
    initialValues: info,
    // The schema decides; the message beside the field is ours, in the interface language.
    validate: (values) =>
      Object.fromEntries(
        Object.keys(resolveAccountInfo({ ...values })).map((field) => [
          field,
          t(field === "phone" ? "info.errors.phone" : "info.errors.name"),
        ]),
      ),
  });
  const { setErrors } = form;
  // What the server refused is shown beside its field, like the form's own checks.
  useEffect(() => setErrors(errors), [errors, setErrors]);

  const field = (name: "first_name" | "last_name" | "phone") => {
    const input = form.getInputProps(name);
    return {
      name,
      value: String(input.value ?? ""),
      error: input.error as string | undefined,
      disabled: busy,
      onChange: input.onChange as (event: { currentTarget: HTMLInputElement }) => void,
    };
  };

  return (
    <form onSubmit={form.onSubmit((values) => onSubmit(values))} noValidate>
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
