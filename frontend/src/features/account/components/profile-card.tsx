import { Button, Group, Stack } from "@mantine/core";
import { useForm } from "@mantine/form";
import type { AccountInfo } from "@skyward/contracts/account";
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
import { fieldErrors } from "../../../lib/field-errors.ts";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { dismissErrors, notify } from "../../../lib/notifications.ts";
import { type AccountDetailsChanges, useUpdateAccountDetails } from "../api/update-account-details.ts";
import { SectionCard } from "./section-card.tsx";

const draftOf = (account: AccountInfo): AccountDetailsChanges => ({
  first_name: account.first_name,
  last_name: account.last_name,
  phone: account.phone ?? "",
});

/** The contract's rules for `PUT /account/details`; an empty phone keeps the number on file. */
const resolveProfile = zod4Resolver(z.object(personRules));

/** Names and phone, saved with PUT /account/details. */
export function ProfileCard({ account }: { account: AccountInfo }) {
  const { t } = useTranslation("account");
  const update = useUpdateAccountDetails();
  const form = useForm<AccountDetailsChanges>({
    initialValues: draftOf(account),
    validate: usePersonValidation(resolveProfile),
  });
  // What the server refused is shown beside its field, like the form's own checks.
  const { setErrors } = form;
  const refused = update.error;
  useEffect(() => {
    if (refused) setErrors(fieldErrors(refused, "/account"));
  }, [refused, setErrors]);

  const draft = form.getValues();
  const saved = draftOf(account);
  const changed = (Object.keys(draft) as (keyof AccountDetailsChanges)[]).some(
    (name) => draft[name].trim() !== saved[name],
  );

  const submit = form.onSubmit((values) => {
    dismissErrors();
    update.mutate(values, {
      onSuccess: (response) => {
        form.setValues(draftOf({ ...account, ...response.data }));
        form.resetDirty();
        notify({ text: t("profile.saved"), type: "success" });
      },
    });
  }, focusFirstError);

  return (
    <SectionCard title={t("profile.title")} description={t("profile.description")}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <PersonFields
            field={personFieldsOf(form, update.isPending)}
            labels={{
              first_name: t("profile.first_name"),
              last_name: t("profile.last_name"),
              phone: t("profile.phone"),
              phone_description: t("profile.phone_description"),
              phone_placeholder: t("profile.phone_placeholder"),
            }}
          />
          <Group justify="flex-end" gap="sm">
            {changed ? (
              <Button
                variant="default"
                disabled={update.isPending}
                onClick={() => {
                  form.setValues(saved);
                  form.clearErrors();
                }}
              >
                {t("profile.reset")}
              </Button>
            ) : null}
            <Button type="submit" loading={update.isPending} disabled={!changed}>
              {t("profile.save")}
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}
