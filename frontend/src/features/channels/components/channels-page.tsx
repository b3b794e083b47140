import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { type ChannelHistoryRow, CreateChannelRequest } from "@skyward/contracts/ticketing-commands";
import { useQuery } from "@tanstack/react-query";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type HistoryColumn, HistoryPanel } from "../../../components/history-panel.tsx";
import { LoadFailed, shownInline } from "../../../components/load-failed.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { type Column, ConfirmButton, DataTable } from "../../../components/ui/data-table.tsx";
import {
  type Channel,
  channelPartnersQueryOptions,
  channelsQueryOptions,
  type GlobalGate,
  gatesQueryOptions,
  HISTORY_PAGE_SIZE,
  type HistoryFilters,
  historyQueryOptions,
  type PartnerGateKind,
  useCreateChannel,
  useDeleteChannel,
  useToggleChannel,
  useToggleGate,
  useTogglePartnerGate,
} from "../api/channels.ts";
import { historyValue } from "../history-values.ts";
import { ChannelSettings } from "./channel-settings.tsx";

const GLOBAL_GATES: GlobalGate[] = ["main_gate", "agency_gate", "channel_gate"];

/** Ticketing channels, gates and the channel-change audit, for supervisors (their agency) and administrators. */
export function ChannelsPage({
  administrator,
  filters,
  onFilters,
}: {
  administrator: boolean;
  filters: HistoryFilters;
  onFilters: (next: HistoryFilters) => void;
}) {
  const { t } = useTranslation("channels");
  const channels = useQuery({ ...channelsQueryOptions(), ...shownInline });
  return (
    <Stack gap="lg" p="md" maw={1280} mx="auto" w="100%">
      <Title order={1} fz="h2">
        {t("title")}
      </Title>
      {administrator ? <GatesCard /> : null}
      <Card withBorder radius="md" component="section" aria-labelledby="channels-heading">
        <Title order={2} fz="h4" id="channels-heading" mb="sm">
          {t("channels.heading")}
        </Title>
        {channels.isPending ? (
          <Loader size="sm" aria-label={t("loading")} />
        ) : channels.isError ? (
          <LoadFailed query={channels} title={t("unavailable")} />
        ) : (
          <ChannelsTable rows={channels.data} administrator={administrator} />
        )}
      </Card>
      <HistoryCard channels={channels.data ?? []} filters={filters} onFilters={onFilters} />
    </Stack>
  );
}

function GatesCard() {
  const { t } = useTranslation("channels");
  const gates = useQuery({ ...gatesQueryOptions(), ...shownInline });
  const toggle = useToggleGate();
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="gates-heading">
      <Title order={2} fz="h4" id="gates-heading" mb="sm">
        {t("gates.heading")}
      </Title>
      {gates.data ? (
        <Group gap="xl">
          {GLOBAL_GATES.map((gate) => (
            <Switch
              key={gate}
              label={t(`gates.${gate}`)}
              checked={gates.data[gate]}
              onChange={(event) => toggle.mutate({ gate, active: event.currentTarget.checked })}
            />
          ))}
        </Group>
      ) : gates.isError ? (
        <LoadFailed query={gates} />
      ) : (
        <Loader size="sm" aria-label={t("loading")} />
      )}
      {gates.data ? (
        <Group gap="xl" mt="md" align="start" grow>
          <PartnerGates kind="agency" rows={gates.data.agencies} />
          <PartnerGates kind="company" rows={gates.data.companies} />
        </Group>
      ) : null}
    </Card>
  );
}

/** Partners or companies selling, and those switched off: switching one moves it to the other list. */
function PartnerGates({
  kind,
  rows,
}: {
  kind: PartnerGateKind;
  rows: { id: string; name: string; active: boolean }[];
}) {
  const { t } = useTranslation("channels");
  const toggle = useTogglePartnerGate();
  const list = (active: boolean) => {
    const shown = rows.filter((row) => row.active === active);
    return (
      <Stack gap={4}>
        <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
          {t(active ? `gates.${kind}_open` : `gates.${kind}_closed`)}
        </Text>
        {shown.length === 0 ? (
          <Text fz="sm" c="dimmed">
            —
          </Text>
        ) : (
          shown.map((row) => (
            <Switch
              key={row.id}
              size="xs"
              label={row.name}
              checked={row.active}
              onChange={(event) => toggle.mutate({ kind, id: row.id, active: event.currentTarget.checked })}
            />
          ))
        )}
      </Stack>
    );
  };
  return (
    <Stack gap="xs">
      {list(true)}
      {list(false)}
    </Stack>
  );
}

const SOURCES = ["web", "api", "extension"] as const;

function ChannelsTable({ rows, administrator }: { rows: Channel[]; administrator: boolean }) {
  const { t } = useTranslation("channels");
  const toggle = useToggleChannel();
  const remove = useDeleteChannel();
  const [editing, setEditing] = useState<Channel | null>(null);
  const columns: Column<Channel>[] = [
    {
      key: "title",
      header: t("columns.title"),
      cell: (row) => (
        <Text fw={600} fz="sm">
          {row.title}
        </Text>
      ),
      sortValue: (row) => row.title,
    },
    {
      key: "status",
      header: t("columns.status"),
      sortValue: (row) => Number(row.active),
      cell: (row) => (
        <Group gap={4}>
          <Badge color={row.active ? "teal" : "gray"} variant="light">
            {row.active ? t("status.active") : t("status.inactive")}
          </Badge>
          {row.active_credential ? null : (
            <Badge color="red" variant="outline">
              {t("status.credential_inactive")}
            </Badge>
          )}
        </Group>
      ),
    },
    {
      key: "form_of_payment",
      header: t("columns.form_of_payment"),
      sortValue: (row) => row.form_of_payment,
      cell: (row) => t(`form_of_payment.${row.form_of_payment}`),
    },
    {
      key: "card",
      header: t("columns.card"),
      cell: (row) => (row.credit_card ? `${row.credit_card.brand} ·${row.credit_card.last4}` : "—"),
    },
    { key: "nego_code", header: t("columns.nego_code"), cell: (row) => row.nego_code ?? "—" },
    {
      key: "resident_fares_code",
      header: t("columns.resident_fares_code"),
      cell: (row) => row.resident_fares_code ?? "—",
    },
    {
      key: "sources",
      header: t("columns.sources"),
      cell: (row) =>
        SOURCES.filter((source) => row[source])
          .map((source) => t(`sources.${source}`))
          .join(", ") || "—",
    },
    {
      key: "on_by_supervisor",
      header: t("columns.on_by_supervisor"),
      cell: (row) => (
        <Switch
          aria-label={t("toggle.supervisor", { title: row.title })}
          checked={row.active_by_supervisor}
          onChange={(event) =>
            toggle.mutate({ id: row.id, field: "on_by_supervisor", active: event.currentTarget.checked })
          }
        />
      ),
    },
    {
      key: "on_by_admin",
      header: t("columns.on_by_admin"),
      cell: (row) => (
        <Switch
          aria-label={t("toggle.admin", { title: row.title })}
          checked={row.active_by_admin}
          disabled={!administrator}
          onChange={(event) =>
            toggle.mutate({ id: row.id, field: "on_by_admin", active: event.currentTarget.checked })
          }
        />
      ),
    },
    {
      key: "actions",
      header: t("columns.actions"),
      cell: (row) => (
        <Group gap={4} wrap="nowrap">
          <Button size="compact-sm" variant="subtle" onClick={() => setEditing(row)}>
            {t("settings.open")}
          </Button>
          {administrator ? (
            <ConfirmButton
              label={t("channels.delete")}
              question={t("channels.confirm_delete", { title: row.title })}
              labels={{ title: t("confirm.title"), cancel: t("confirm.cancel") }}
              onConfirm={() => remove.mutate(row.id)}
            />
          ) : null}
        </Group>
      ),
    },
  ];
  return (
    <>
      {editing ? (
        <ChannelSettings channel={editing} administrator={administrator} onClose={() => setEditing(null)} />
      ) : null}
      <DataTable
        rows={rows}
        columns={columns}
        rowKey={(row) => row.id}
        filterText={(row) => [row.title, row.nego_code ?? "", row.resident_fares_code ?? ""].join(" ")}
        labels={{
          filter: t("channels.filter"),
          empty: t("channels.empty"),
          previous: t("page_previous"),
          next: t("page_next"),
        }}
        initialSort={{ column: "title", descending: false }}
        toolbar={administrator ? <CreateChannelForm /> : null}
      />
    </>
  );
}

/** Administrators open a channel for a partner; it starts switched off, without credentials. */
function CreateChannelForm() {
  const { t } = useTranslation("channels");
  const partners = useQuery(channelPartnersQueryOptions());
  const create = useCreateChannel();
  const form = useForm({
    initialValues: { agency_id: "", name: "" },
    validate: zod4Resolver(CreateChannelRequest),
  });
  return (
    <form
      aria-label={t("channels.create")}
      onSubmit={form.onSubmit((values) => create.mutate(values, { onSuccess: () => form.reset() }))}
    >
      <Group align="flex-end" gap="xs">
        <Select
          size="xs"
          label={t("channels.partner")}
          data={(partners.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          searchable
          {...form.getInputProps("agency_id")}
          error={form.errors.agency_id ? t("validation.agency_id") : undefined}
        />
        <TextInput
          size="xs"
          label={t("channels.name")}
          {...form.getInputProps("name")}
          error={form.errors.name ? t("validation.name") : undefined}
        />
        <Button size="xs" type="submit" loading={create.isPending}>
          {t("channels.create")}
        </Button>
      </Group>
    </form>
  );
}

function HistoryCard({
  channels,
  filters,
  onFilters,
}: {
  channels: Channel[];
  filters: HistoryFilters;
  onFilters: (next: HistoryFilters) => void;
}) {
  const { t } = useTranslation("channels");
  const formats = useFormats();
  const history = useQuery({ ...historyQueryOptions(filters), ...shownInline });
  const titleOf = (row: ChannelHistoryRow) =>
    row.gate
      ? t(`gate_kinds.${row.gate}`)
      : (channels.find((c) => c.id === row.channel_id)?.title ?? row.channel_id);
  const columns: HistoryColumn<ChannelHistoryRow>[] = [
    {
      key: "at",
      header: t("history.at"),
      cell: (row) => formats.instant(row.at, { seconds: true }),
      td: { style: { whiteSpace: "nowrap" } },
    },
    {
      key: "who",
      header: t("history.who"),
      cell: (row) => row.actor.name ?? t(`roles.${row.actor.role}`, { defaultValue: row.actor.role }),
    },
    { key: "what", header: t("history.what"), cell: titleOf },
    {
      key: "field",
      header: t("history.field"),
      cell: (row) => t(`fields.${row.field}`, { defaultValue: row.field }),
    },
    {
      key: "change",
      header: t("history.change"),
      cell: (row) => (
        <>
          {historyValue(row, row.before, t)} → {historyValue(row, row.after, t)}
        </>
      ),
    },
    {
      key: "source",
      header: t("history.source"),
      cell: (row) => t(`sources.${row.source}`, { defaultValue: row.source }),
    },
    {
      key: "event",
      header: t("history.event"),
      cell: (row) => (
        <Anchor href={row.link} target="_blank" rel="noreferrer" fz="xs">
          {t("history.open_event")}
        </Anchor>
      ),
    },
  ];
  return (
    <HistoryPanel
      id="history-heading"
      heading={t("history.heading")}
      history={history}
      columns={columns}
      page={filters.page}
      pageSize={HISTORY_PAGE_SIZE}
      onPage={(page) => onFilters({ ...filters, page })}
      labels={{
        loading: t("loading"),
        unavailable: t("unavailable"),
        empty: t("history.empty"),
        previous: t("page_previous"),
        next: t("page_next"),
      }}
      minWidth={900}
      striped
    >
      <Group gap="sm" mb="sm" align="end">
        <Select
          label={t("history.channel")}
          placeholder={t("history.all_channels")}
          clearable
          data={channels.map((c) => ({ value: c.id, label: c.title }))}
          value={filters.channel_id ?? null}
          onChange={(value) => onFilters({ ...filters, channel_id: value ?? undefined, page: 1 })}
        />
        <TextInput
          type="date"
          label={t("history.date_from")}
          value={filters.date_from ?? ""}
          onChange={(event) =>
            onFilters({ ...filters, date_from: event.currentTarget.value || undefined, page: 1 })
          }
        />
        <TextInput
          type="date"
          label={t("history.date_to")}
          value={filters.date_to ?? ""}
          onChange={(event) =>
            onFilters({ ...filters, date_to: event.currentTarget.value || undefined, page: 1 })
          }
        />
      </Group>
    </HistoryPanel>
  );
}
