import {
  Alert,
  Button,
  Divider,
  Group,
  Modal,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { CreateCardRequest } from "@skyward/contracts/cards";
import { CredentialRequest } from "@skyward/contracts/ticketing-commands";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { fieldErrors } from "../../../lib/field-errors.ts";
import {
  type Channel,
  type CredentialAnswer,
  cardsQueryOptions,
  useAddCard,
  useSaveCredential,
  useUpdateChannel,
} from "../api/channels.ts";

type Translate = ReturnType<typeof useTranslation<"channels">>["t"];
const CHECKED_FIELDS = ["number", "exp_month", "exp_year", "holder", "login", "password"] as const;

/** The fields a contracts parse refused, each with its translated hint (the schema's own words are English). */
function problems(error: { issues: { path: PropertyKey[] }[] }, t: Translate): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = CHECKED_FIELDS.find((name) => name === issue.path[0]);
    if (field) out[field] ??= t(`validation.${field}`);
  }
  return out;
}

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
  const [form, setForm] = useState({
    form_of_payment: channel.form_of_payment as string,
    ticketing_credit_card_id: channel.credit_card?.id ?? null,
    nego_code: channel.nego_code ?? "",
    resident_fares_code: channel.resident_fares_code ?? "",
  });
  const usable = (cards.data ?? []).filter(
    (card) => card.agency_id === null || card.agency_id === channel.agency_id,
  );
  const serverErrors = fieldErrors(update.error);
  return (
    <Modal
      opened
      onClose={onClose}
      title={t("settings.title", { title: channel.title })}
      size="lg"
      centered
      closeButtonProps={{ "aria-label": t("settings.close") }}
    >
      <Stack gap="sm">
        <Select
          label={t("columns.form_of_payment")}
          data={[
            { value: "balance", label: t("form_of_payment.balance") },
            { value: "card", label: t("form_of_payment.card") },
          ]}
          value={form.form_of_payment}
          allowDeselect={false}
          onChange={(value) => setForm({ ...form, form_of_payment: value ?? "balance" })}
        />
        <Select
          label={t("columns.card")}
          placeholder={t("settings.no_card")}
          clearable
          data={usable.map((card) => ({
            value: card.id,
            label: `${card.brand} ·${card.last4} ${String(card.exp_month).padStart(2, "0")}/${card.exp_year} ${card.holder}`,
          }))}
          value={form.ticketing_credit_card_id}
          onChange={(value) => setForm({ ...form, ticketing_credit_card_id: value })}
          error={serverErrors.ticketing_credit_card_id}
        />
        <Group grow>
          <TextInput
            label={t("columns.nego_code")}
            value={form.nego_code}
            onChange={(event) => setForm({ ...form, nego_code: event.currentTarget.value })}
            error={serverErrors.nego_code}
          />
          <TextInput
            label={t("columns.resident_fares_code")}
            value={form.resident_fares_code}
            onChange={(event) => setForm({ ...form, resident_fares_code: event.currentTarget.value })}
            error={serverErrors.resident_fares_code}
          />
        </Group>
        <Group justify="end">
          <Button
            loading={update.isPending}
            onClick={() => update.mutate({ id: channel.id, settings: form }, { onSuccess: onClose })}
          >
            {t("settings.save")}
          </Button>
        </Group>
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
  const [card, setCard] = useState({ number: "", exp_month: "", exp_year: "", holder: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = () => {
    const parsed = CreateCardRequest.safeParse({ ...card, agency_id: agencyId });
    if (!parsed.success) return setErrors(problems(parsed.error, t));
    setErrors({});
    add.mutate(
      { ...parsed.data, agency_id: agencyId },
      { onSuccess: () => setCard({ number: "", exp_month: "", exp_year: "", holder: "" }) },
    );
  };
  const field = (name: keyof typeof card) => ({
    value: card[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
      setCard({ ...card, [name]: event.currentTarget.value }),
    error: errors[name] ?? fieldErrors(add.error, "/credit_card")[name] ?? fieldErrors(add.error)[name],
  });
  return (
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
        <Button mt={24} variant="light" loading={add.isPending} onClick={submit}>
          {t("cards.add")}
        </Button>
      </Group>
      {add.data ? <Text fz="sm">{t("cards.added", { last4: add.data.last4 })}</Text> : null}
    </Stack>
  );
}

function CredentialForm({ channel }: { channel: Channel }) {
  const { t } = useTranslation("channels");
  const save = useSaveCredential();
  const [credential, setCredential] = useState({ login: "", password: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [answer, setAnswer] = useState<CredentialAnswer | null>(null);
  const submit = () => {
    const parsed = CredentialRequest.safeParse(credential);
    if (!parsed.success) return setErrors(problems(parsed.error, t));
    setErrors({});
    save.mutate(
      { id: channel.id, create: channel.credential === null, ...parsed.data },
      {
        onSuccess: (data) => {
          setAnswer(data);
          setCredential({ login: credential.login, password: "" });
        },
      },
    );
  };
  return (
    <Stack gap="xs">
      <Group grow align="start">
        <TextInput
          label={t("credential.login")}
          autoComplete="off"
          value={credential.login}
          onChange={(event) => setCredential({ ...credential, login: event.currentTarget.value })}
          error={errors.login}
        />
        <PasswordInput
          label={t("credential.password")}
          autoComplete="new-password"
          value={credential.password}
          onChange={(event) => setCredential({ ...credential, password: event.currentTarget.value })}
          error={errors.password}
        />
        <Button mt={24} variant="light" loading={save.isPending} onClick={submit}>
          {t("credential.check")}
        </Button>
      </Group>
      {answer?.messages.map((message) => (
        <Alert key={message.text} color={message.type === "error" ? "red" : "teal"} variant="light" p="xs">
          {message.text}
        </Alert>
      ))}
    </Stack>
  );
}
