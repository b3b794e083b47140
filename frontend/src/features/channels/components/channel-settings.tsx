import { Alert, Button, Divider, Group, PasswordInput, Select, Stack, Text, TextInput } from "@mantine/core";
import { type FormErrors, useForm } from "@mantine/form";
import { CreateCardRequest } from "@skyward/contracts/cards";
import { ChannelSettingsForm, type ChannelSettingsValues } from "@skyward/contracts/channel-forms";
import type { CredentialResponse } from "@skyward/contracts/ticketing-commands";
import { CredentialRequest } from "@skyward/contracts/ticketing-commands";
import { useQuery } from "@tanstack/react-query";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Modal } from "../../../components/ui/modal.tsx";
import { fieldErrors } from "../../../lib/field-errors.ts";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { translatedValidation } from "../../../lib/form-validation.ts";
import {
  type Channel,
  cardsQueryOptions,
  useAddCard,
  useSaveCredential,
  useUpdateChannel,
} from "../api/channels.ts";

type Translate = ReturnType<typeof useTranslation<"channels">>["t"];
const CHECKED_FIELDS = [
  "number",
  "exp_month",
  "exp_year",
  "holder",
  "login",
  "password",
  "ticketing_credit_card_id",
  "nego_code",
  "resident_fares_code",
] as const;
const isChecked = (field: string): field is (typeof CHECKED_FIELDS)[number] =>
  (CHECKED_FIELDS as readonly string[]).includes(field);

/** The contract decides; each field it refuses gets its translated hint (the schema's own words are English). */
const hints = (resolve: (values: Record<string, unknown>) => FormErrors, t: Translate) =>
  translatedValidation(resolve, (key, field) => (isChecked(field) ? t(`validation.${field}`) : key));

const resolveSettings = zod4Resolver(ChannelSettingsForm);
const resolveCard = zod4Resolver(CreateCardRequest);
const resolveCredential = zod4Resolver(CredentialRequest);
const emptyCard = { number: "", exp_month: "", exp_year: "", holder: "" };

/** A channel's settings: form of payment, the card that pays, codes; cards and (administrators) credentials. */
export function ChannelSettings({
  channel,
  administrator,
  onClose,
}: {
  channel: Channel;
  administrator: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation("channels");
  const cards = useQuery(cardsQueryOptions());
  const update = useUpdateChannel();
  const form = useForm<ChannelSettingsValues>({
    initialValues: {
      form_of_payment: channel.form_of_payment,
      ticketing_credit_card_id: channel.credit_card?.id ?? null,
      nego_code: channel.nego_code ?? "",
      resident_fares_code: channel.resident_fares_code ?? "",
    },
    validate: (values) => hints(resolveSettings, t)(values),
  });
  // What the server refused is shown beside its field.
  const { setErrors } = form;
  const refused = update.error;
  useEffect(() => {
    if (refused) setErrors(fieldErrors(refused));
  }, [refused, setErrors]);
  const usable = (cards.data ?? []).filter(
    (card) => card.agency_id === null || card.agency_id === channel.agency_id,
  );
  return (
    <Modal
      opened
      onClose={onClose}
      dirty={form.isDirty()}
      title={t("settings.title", { title: channel.title })}
      size="lg"
      centered
      closeButtonProps={{ "aria-label": t("settings.close") }}
    >
      <Stack gap="sm">
        <form
          noValidate
          onSubmit={form.onSubmit(
            (values) =>
              update.mutate(
                { id: channel.id, settings: ChannelSettingsForm.parse(values) },
                { onSuccess: onClose },
              ),
            focusFirstError,
          )}
        >
          <Stack gap="sm">
            <Select
              label={t("columns.form_of_payment")}
              data={[
                { value: "balance", label: t("form_of_payment.balance") },
                { value: "card", label: t("form_of_payment.card") },
              ]}
              allowDeselect={false}
              {...form.getInputProps("form_of_payment")}
            />
            <Select
              label={t("columns.card")}
              placeholder={t("settings.no_card")}
              clearable
              data={usable.map((card) => ({
                value: card.id,
                label: `${card.brand} ·${card.last4} ${String(card.exp_month).padStart(2, "0")}/${card.exp_year} ${card.holder}`,
              }))}
              {...form.getInputProps("ticketing_credit_card_id")}
            />
            <Group grow>
              <TextInput label={t("columns.nego_code")} {...form.getInputProps("nego_code")} />
              <TextInput
                label={t("columns.resident_fares_code")}
                {...form.getInputProps("resident_fares_code")}
              />
            </Group>
            <Group justify="end">
              <Button type="submit" loading={update.isPending}>
                {t("settings.save")}
              </Button>
            </Group>
          </Stack>
        </form>
        <Divider label={t("cards.heading")} labelPosition="left" />
        <AddCard agencyId={administrator ? channel.agency_id : undefined} />
        {administrator ? (
          <>
            <Divider label={t("credential.heading")} labelPosition="left" />
            <CredentialForm channel={channel} />
          </>
        ) : null}
      </Stack>
    </Modal>
  );
}

function AddCard({ agencyId }: { agencyId: string | undefined }) {
  const { t } = useTranslation("channels");
  const add = useAddCard();
  const form = useForm({
    initialValues: emptyCard,
    validate: (values) => hints(resolveCard, t)({ ...values, agency_id: agencyId }),
  });
  // What the server refused is shown beside its field, like the form's own checks.
  const { setErrors } = form;
  const refused = add.error;
  useEffect(() => {
    if (refused) setErrors({ ...fieldErrors(refused), ...fieldErrors(refused, "/credit_card") });
  }, [refused, setErrors]);
  const submit = form.onSubmit((values) => {
    const card = CreateCardRequest.parse({ ...values, agency_id: agencyId });
    add.mutate({ ...card, agency_id: agencyId }, { onSuccess: () => form.reset() });
  }, focusFirstError);
  const field = (name: keyof typeof emptyCard) => ({ ...form.getInputProps(name), disabled: add.isPending });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <Group grow align="start">
          <TextInput
            label={t("cards.number")}
            autoComplete="cc-number"
            inputMode="numeric"
            {...field("number")}
          />
          <TextInput label={t("cards.holder")} autoComplete="cc-name" {...field("holder")} />
        </Group>
        <Group grow align="start">
          <TextInput
            label={t("cards.exp_month")}
            autoComplete="cc-exp-month"
            inputMode="numeric"
            {...field("exp_month")}
          />
          <TextInput
            label={t("cards.exp_year")}
            autoComplete="cc-exp-year"
            inputMode="numeric"
            {...field("exp_year")}
          />
          <Button mt={24} variant="light" type="submit" loading={add.isPending}>
            {t("cards.add")}
          </Button>
        </Group>
        {add.data ? <Text fz="sm">{t("cards.added", { last4: add.data.last4 })}</Text> : null}
      </Stack>
    </form>
  );
}

function CredentialForm({ channel }: { channel: Channel }) {
  const { t } = useTranslation("channels");
  const save = useSaveCredential();
  const form = useForm({
    initialValues: { login: "", password: "" },
    validate: (values) => hints(resolveCredential, t)(values),
  });
  const [answer, setAnswer] = useState<CredentialResponse | null>(null);
  const submit = form.onSubmit((values) => {
    const credential = CredentialRequest.parse(values);
    save.mutate(
      { id: channel.id, create: channel.credential === null, ...credential },
      {
        onSuccess: (data) => {
          setAnswer(data);
          form.setFieldValue("password", "");
        },
      },
    );
  }, focusFirstError);
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <Group grow align="start">
          <TextInput
            label={t("credential.login")}
            autoComplete="off"
            {...form.getInputProps("login")}
            disabled={save.isPending}
          />
          <PasswordInput
            label={t("credential.password")}
            autoComplete="new-password"
            {...form.getInputProps("password")}
            disabled={save.isPending}
          />
          <Button mt={24} variant="light" type="submit" loading={save.isPending}>
            {t("credential.check")}
          </Button>
        </Group>
        {answer?.messages.map((message) => (
          <Alert key={message.text} color={message.type === "error" ? "red" : "teal"} variant="light" p="xs">
            {message.text}
          </Alert>
        ))}
      </Stack>
    </form>
  );
}
