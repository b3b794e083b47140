import { Button, Group, Stack, Text, TextInput } from "@mantine/core";
import type { BookingContacts as Contacts } from "@skyward/contracts/supplier";
import { IconMail, IconPencil, IconPhone } from "@tabler/icons-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { fieldErrors } from "../../../lib/field-errors.ts";
import { notify } from "../../../lib/notifications.ts";
import { useModifyContacts } from "../api/booking-commands.ts";

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
  const modify = useModifyContacts(locator);
  const [editing, setEditing] = useState(false);
  const [email, setEmail] = useState(contacts.email);
  const [phone, setPhone] = useState(contacts.phone);
  const errors = fieldErrors(modify.error, "/contacts");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes = {
      ...(email.trim() !== contacts.email ? { email: email.trim() } : {}),
      ...(phone.replace(/[\s().-]/g, "") !== contacts.phone ? { phone: phone.replace(/[\s().-]/g, "") } : {}),
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
  };

  if (!editing) {
    return (
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
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
              setEmail(contacts.email);
              setPhone(contacts.phone);
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
    <form onSubmit={submit} aria-label={t("contacts.edit")}>
      <Stack gap="xs">
        <Group grow align="flex-start">
          <TextInput
            size="xs"
            label={t("contacts.email")}
            type="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={errors.email}
          />
          <TextInput
            size="xs"
            label={t("contacts.phone")}
            type="tel"
            value={phone}
            onChange={(event) => setPhone(event.currentTarget.value)}
            error={errors.phone}
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
