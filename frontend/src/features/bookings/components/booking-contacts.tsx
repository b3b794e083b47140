import { Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { ContactsForm, type ContactsFormValues } from "@skyward/contracts/booking-forms";
import type { BookingContacts as Contacts } from "@skyward/contracts/supplier";
import { IconMail, IconPencil, IconPhone } from "@tabler/icons-react";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { fieldErrors } from "../../../lib/field-errors.ts";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { translatedValidation, useFormErrorWords } from "../../../lib/form-validation.ts";
import { notify } from "../../../lib/notifications.ts";
import { personalData } from "../../../lib/personal-data.ts";
import { useModifyContacts } from "../api/booking-commands.ts";

const resolveContacts = zod4Resolver(ContactsForm);

/** The traveller's contacts the airline writes to, and their change (`POST /bookings/modify`). */
export function BookingContacts({
  locator,
  contacts,
  editable,
}: {
  locator: string;
  contacts: Contacts;
  editable: boolean;
}) {
  const { t } = useTranslation("bookings");
  const say = useFormErrorWords();
  const modify = useModifyContacts(locator);
  const [editing, setEditing] = useState(false);
  const form = useForm<ContactsFormValues>({
    initialValues: { email: contacts.email, phone: contacts.phone },
    validate: translatedValidation(resolveContacts, say),
  });
  // What the server refused is shown beside its field, like the form's own checks.
  const { setErrors } = form;
  const refused = modify.error;
  useEffect(() => {
    if (refused) setErrors(fieldErrors(refused, "/contacts"));
  }, [refused, setErrors]);

  const submit = form.onSubmit((values) => {
    const typed = ContactsForm.parse(values);
    const changes = {
      ...(typed.email !== contacts.email ? { email: typed.email } : {}),
      ...(typed.phone !== contacts.phone ? { phone: typed.phone } : {}),
    };
    if (Object.keys(changes).length === 0) {
      setEditing(false);
      return;
    }
    modify.mutate(changes, {
      onSuccess: () => {
        setEditing(false);
        notify({ type: "success", text: t("contacts.saved", { locator }) });
      },
    });
  }, focusFirstError);

  if (!editing) {
    return (
      <Group justify="space-between" align="flex-start">
        <Stack gap={4} {...personalData}>
          <Group gap={6}>
            <IconMail size={14} />
            <Text fz="sm">{contacts.email}</Text>
          </Group>
          <Group gap={6}>
            <IconPhone size={14} />
            <Text fz="sm" ff="monospace">
              {contacts.phone}
            </Text>
          </Group>
        </Stack>
        {editable ? (
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconPencil size={13} />}
            onClick={() => {
              form.setValues({ email: contacts.email, phone: contacts.phone });
              form.clearErrors();
              modify.reset();
              setEditing(true);
            }}
          >
            {t("contacts.edit")}
          </Button>
        ) : null}
      </Group>
    );
  }
  return (
    <form onSubmit={submit} aria-label={t("contacts.edit")} noValidate>
      <Stack gap="xs">
        <Group grow align="flex-start">
          <TextInput
            size="xs"
            label={t("contacts.email")}
            type="email"
            autoComplete="email"
            {...form.getInputProps("email")}
            disabled={modify.isPending}
          />
          <TextInput
            size="xs"
            label={t("contacts.phone")}
            type="tel"
            autoComplete="tel"
            placeholder="+380501234567"
            {...form.getInputProps("phone")}
            disabled={modify.isPending}
          />
        </Group>
        <Group justify="flex-end" gap="xs">
          <Button size="xs" variant="default" onClick={() => setEditing(false)} disabled={modify.isPending}>
            {t("contacts.cancel")}
          </Button>
          <Button size="xs" type="submit" loading={modify.isPending}>
            {t("contacts.save")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
