import { Button, Group, NativeSelect, Stack, Table, Text, Textarea, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { ItineraryMailForm, type ItineraryMailFormValues } from "@skyward/contracts/booking-forms";
import type { BookingDetails } from "@skyward/contracts/bookings";
import { Language } from "@skyward/contracts/ids";
import { IconMail } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { errorMessages } from "../../../lib/api-client.ts";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { translatedValidation, useFormErrorWords } from "../../../lib/form-validation.ts";
import { LANGUAGE_NAMES } from "../../../lib/language-names.ts";
import { notify } from "../../../lib/notifications.ts";
import { itineraryMailsQueryOptions, useSendItinerary } from "../api/itinerary-mails.ts";

const NOTE_MAX = 1000;
const resolveMail = zod4Resolver(ItineraryMailForm);

/**
 * The traveller's itinerary e-mail on the booking page: every send (on issue or by hand, who, to whom, when), and a
 * form to send it now to any address, with a note, in a language (the interface's by default).
 */
export function ItineraryMails({ booking }: { booking: BookingDetails }) {
  const { t, i18n } = useTranslation("after-sales");
  const formats = useFormats();
  const say = useFormErrorWords({ max: NOTE_MAX });
  const mails = useQuery(itineraryMailsQueryOptions(booking.locator));
  const send = useSendItinerary(booking.locator);
  const [open, setOpen] = useState(false);
  const form = useForm<ItineraryMailFormValues>({
    initialValues: {
      to: booking.contacts.email,
      note: "",
      language: Language.catch("en").parse(i18n.language),
    },
    validate: translatedValidation(resolveMail, say),
  });
  const submit = form.onSubmit((values) => {
    const { to, note, language } = ItineraryMailForm.parse(values);
    send.mutate(
      { to, language, ...(note ? { note } : {}) },
      {
        onSuccess: (mail) => {
          notify({ type: "success", text: t("itinerary.sent", { to: mail.to }) });
          setOpen(false);
          form.setFieldValue("note", "");
        },
      },
    );
  }, focusFirstError);
  const sends = mails.data ?? [];

  return (
    <Stack gap="xs" component="section" aria-label={t("itinerary.title")} data-testid="itinerary-mails">
      <Group justify="space-between">
        <Title order={3} fz={14} fw={650}>
          {t("itinerary.title")}
        </Title>
        {open ? null : (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconMail size={14} />}
            onClick={() => setOpen(true)}
          >
            {t("itinerary.open")}
          </Button>
        )}
      </Group>
      {sends.length === 0 ? (
        <Text fz="sm" c="dimmed">
          {t("itinerary.none")}
        </Text>
      ) : (
        <Table fz="sm" verticalSpacing={4} horizontalSpacing="xs" withTableBorder>
          <Table.Thead bg="var(--skyward-surface)">
            <Table.Tr>
              <Table.Th>{t("itinerary.columns.at")}</Table.Th>
              <Table.Th>{t("itinerary.columns.to")}</Table.Th>
              <Table.Th>{t("itinerary.columns.by")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sends.map((mail) => (
              <Table.Tr key={mail.mail_id}>
                <Table.Td>{formats.instant(mail.at)}</Table.Td>
                <Table.Td>{mail.to}</Table.Td>
                <Table.Td>
                  {mail.reason === "issued"
                    ? t("itinerary.on_issue")
                    : mail.reason === "schedule_change"
                      ? t("itinerary.on_schedule_change")
                      : (mail.by_email ?? "")}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {open ? (
        <form onSubmit={submit} noValidate aria-label={t("itinerary.form")}>
          <Stack gap={6}>
            <TextInput
              type="email"
              label={t("itinerary.to")}
              {...form.getInputProps("to")}
              disabled={send.isPending}
            />
            <NativeSelect
              label={t("itinerary.language")}
              data={Language.options.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))}
              {...form.getInputProps("language")}
              disabled={send.isPending}
            />
            <Textarea
              label={t("itinerary.note")}
              rows={2}
              resize="vertical"
              maxLength={NOTE_MAX}
              {...form.getInputProps("note")}
              error={form.errors.note ?? (send.isError ? errorMessages(send.error).join(" ") : undefined)}
              disabled={send.isPending}
            />
            <Group justify="flex-end">
              <Button size="xs" variant="default" onClick={() => setOpen(false)} disabled={send.isPending}>
                {t("itinerary.cancel")}
              </Button>
              <Button type="submit" size="xs" loading={send.isPending}>
                {t("itinerary.send")}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Stack>
  );
}
