import { Button, Group, Stack } from "@mantine/core";
import type { AccountInfo } from "@skyward/contracts/account";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { PersonFields } from "../../../components/person-fields.tsx";
import { fieldErrors } from "../../../lib/field-errors.ts";
import { dismissErrors, notify } from "../../../lib/notifications.ts";
import { type AccountDetailsChanges, useUpdateAccountDetails } from "../api/update-account-details.ts";
import { SectionCard } from "./section-card.tsx";

const draftOf = (account: AccountInfo): AccountDetailsChanges => ({
  first_name: account.first_name,
  last_name: account.last_name,
  phone: account.phone ?? "",
});

/** Names and phone, saved with PUT /account/details. */
export function ProfileCard({ account }: { account: AccountInfo }) {
  const { t } = useTranslation("account");
  const [draft, setDraft] = useState(() => draftOf(account));
  const update = useUpdateAccountDetails();
  const errors = fieldErrors(update.error, "/account");
  const saved = draftOf(account);
  const changed = (Object.keys(draft) as (keyof AccountDetailsChanges)[]).some(
    (name) => draft[name].trim() !== saved[name],
  );

  const field = (name: keyof AccountDetailsChanges) => ({
    name,
    value: draft[name],
    error: errors[name],
    disabled: update.isPending,
    onChange: (event: { currentTarget: HTMLInputElement }) =>
      setDraft({ ...draft, [name]: event.currentTarget.value }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    dismissErrors();
    update.mutate(draft, {
      onSuccess: (response) => {
        setDraft(draftOf({ ...account, ...response.data }));
        notify({ text: t("profile.saved"), type: "success" });
      },
    });
  };

  return (
    <SectionCard title={t("profile.title")} description={t("profile.description")}>
      <form onSubmit={submit}>
        <Stack gap="md">
          <PersonFields
            field={field}
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
              <Button variant="default" disabled={update.isPending} onClick={() => setDraft(saved)}>
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
