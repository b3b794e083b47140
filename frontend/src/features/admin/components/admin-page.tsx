import {
  Badge,
  Button,
  Card,
  Group,
  Loader,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import type { Company, Partner } from "@skyward/contracts/administration";
import { type BalanceHistoryRow, BalanceMovementKind } from "@skyward/contracts/balances";
import { useQuery } from "@tanstack/react-query";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { type HistoryColumn, HistoryPanel } from "../../../components/history-panel.tsx";
import { LoadFailed, shownInline } from "../../../components/load-failed.tsx";
import { type Column, ConfirmButton, DataTable } from "../../../components/ui/data-table.tsx";
import { formatInstant } from "../../../lib/date-format.ts";
import { useSiteLanguage } from "../../../lib/i18n.ts";
import { formatMoney, majorUnit } from "../../../lib/money.ts";
import { useSession } from "../../../lib/session.ts";
import {
  BALANCE_PAGE_SIZE,
  type BalanceFilters,
  balanceHistoryQueryOptions,
  companiesQueryOptions,
  type PartnerFlag,
  partnersQueryOptions,
  useCreateCompany,
  useCreatePartner,
  useDeleteCompany,
  useDeletePartner,
  useDuplicatePartner,
  useSellFor,
  useSetPartnerTimeZone,
  useTogglePartnerFlag,
  useToggleSharedBookings,
  useTransaction,
} from "../api/admin.ts";
import { ChangesCard, JoinRequestsCard, SupervisorsCard } from "./people-cards.tsx";

const FLAGS: PartnerFlag[] = ["production_api_on", "corporate_number_on", "ghost_segments_remarks_on"];
/** Every zone the browser knows (IANA), UTC first: what a partner's documents may write times in. */
const TIME_ZONES = ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];
const KINDS = BalanceMovementKind.options;

/** The form schemas are the contracts' request fields, in the units the form speaks (major units for money). */
const PartnerForm = z.object({ name: z.string().trim().min(1).max(200) });
const CompanyForm = z.object({
  agency_id: z.string().min(1),
  name: z.string().trim().min(1).max(200),
  currency: z.union([z.literal(""), z.string().regex(/^[A-Z]{3}$/)]),
});
const TransactionForm = z.object({
  company_id: z.string().min(1),
  kind: z.enum(["top_up", "correction"]),
  amount: z.number().refine((n) => n !== 0),
  reason: z.string().trim().min(1).max(500),
});

type Role = "admin" | "support" | "supervisor";

/** Partners, companies and balances: administrators run all of it, supervisors their own partner's companies. */
export function AdminPage({
  role,
  filters,
  onFilters,
}: {
  role: Role;
  filters: BalanceFilters;
  onFilters: (next: BalanceFilters) => void;
}) {
  const { t } = useTranslation("admin");
  const partners = useQuery({ ...partnersQueryOptions(), ...shownInline });
  const companies = useQuery({ ...companiesQueryOptions(), ...shownInline });
  return (
    <Stack gap="lg" p="md" maw={1280} mx="auto" w="100%">
      <Title order={1} fz="h2">
        {t("title")}
      </Title>
      <LoadFailed query={partners} />
      <LoadFailed query={companies} />
      <PartnersCard partners={partners.data} loading={partners.isPending} role={role} />
      <CompaniesCard
        partners={partners.data ?? []}
        companies={companies.data}
        loading={companies.isPending}
      />
      {partners.data && partners.data.length > 0 ? <SupervisorsCard partners={partners.data} /> : null}
      <JoinRequestsCard companies={companies.data ?? []} />
      <BalancesCard companies={companies.data ?? []} role={role} filters={filters} onFilters={onFilters} />
      <ChangesCard />
    </Stack>
  );
}

function PartnersCard({
  partners,
  loading,
  role,
}: {
  partners: Partner[] | undefined;
  loading: boolean;
  role: Role;
}) {
  const { t } = useTranslation("admin");
  const create = useCreatePartner();
  const remove = useDeletePartner();
  const duplicate = useDuplicatePartner();
  const toggle = useTogglePartnerFlag();
  const setZone = useSetPartnerTimeZone();
  const form = useForm({ initialValues: { name: "" }, validate: zod4Resolver(PartnerForm) });
  const administrator = role !== "supervisor";
  const confirmLabels = { title: t("confirm.title"), cancel: t("confirm.cancel") };
  const columns: Column<Partner>[] = [
    {
      key: "name",
      header: t("partners.name"),
      sortValue: (p) => p.name,
      cell: (p) => (
        <Text fw={600} fz="sm">
          {p.name}
        </Text>
      ),
    },
    {
      key: "companies",
      header: t("partners.companies"),
      sortValue: (p) => p.companies_count,
      cell: (p) => p.companies_count,
    },
    {
      key: "supervisors",
      header: t("partners.supervisors"),
      sortValue: (p) => p.supervisors_count,
      cell: (p) => p.supervisors_count,
    },
    {
      key: "channels",
      header: t("partners.channels"),
      sortValue: (p) => p.channels.length,
      cell: (p) => p.channels.length,
    },
    {
      key: "time_zone",
      header: t("partners.time_zone"),
      sortValue: (p) => p.time_zone ?? "UTC",
      cell: (partner) => (
        <Select
          size="xs"
          w={170}
          searchable
          allowDeselect={false}
          // A zone the browser's list names otherwise (Europe/Kyiv, listed as Europe/Kiev) is still offered.
          data={
            TIME_ZONES.includes(partner.time_zone ?? "UTC")
              ? TIME_ZONES
              : [partner.time_zone ?? "UTC", ...TIME_ZONES]
          }
          value={partner.time_zone ?? "UTC"}
          aria-label={t("partners.time_zone_of", { name: partner.name })}
          onChange={(zone) => {
            if (zone && zone !== partner.time_zone) setZone.mutate({ id: partner.id, time_zone: zone });
          }}
        />
      ),
    },
    ...FLAGS.map(
      (flag): Column<Partner> => ({
        key: flag,
        header: t(`flags.${flag}`),
        cell: (partner) => (
          <Switch
            aria-label={t("flags.toggle", { flag: t(`flags.${flag}`), name: partner.name })}
            checked={partner[flag]}
            disabled={!administrator}
            onChange={(event) => toggle.mutate({ id: partner.id, flag, active: event.currentTarget.checked })}
          />
        ),
      }),
    ),
    ...(administrator
      ? [
          {
            key: "actions",
            header: t("actions"),
            cell: (partner: Partner) => (
              <Group gap={4} wrap="nowrap">
                <Button size="compact-xs" variant="subtle" onClick={() => duplicate.mutate(partner.id)}>
                  {t("partners.duplicate")}
                </Button>
                <ConfirmButton
                  label={t("delete")}
                  question={t("partners.confirm_delete", { name: partner.name })}
                  labels={confirmLabels}
                  onConfirm={() => remove.mutate(partner.id)}
                />
              </Group>
            ),
          },
        ]
      : []),
  ];
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="partners-heading">
      <Title order={2} fz="h4" id="partners-heading" mb="sm">
        {t("partners.heading")}
      </Title>
      {loading ? (
        <Loader size="sm" aria-label={t("loading")} />
      ) : (
        <DataTable
          rows={partners ?? []}
          columns={columns}
          rowKey={(p) => p.id}
          filterText={(p) => p.name}
          labels={{
            filter: t("filter"),
            empty: t("empty"),
            previous: t("page_previous"),
            next: t("page_next"),
          }}
          initialSort={{ column: "name", descending: false }}
          toolbar={
            administrator ? (
              <form
                onSubmit={form.onSubmit((values) => create.mutate(values, { onSuccess: () => form.reset() }))}
                aria-label={t("partners.create")}
              >
                <Group align="flex-end" gap="xs">
                  <TextInput size="xs" label={t("partners.name")} {...form.getInputProps("name")} />
                  <Button size="xs" type="submit" loading={create.isPending}>
                    {t("partners.create")}
                  </Button>
                </Group>
              </form>
            ) : null
          }
        />
      )}
    </Card>
  );
}

function CompaniesCard({
  partners,
  companies,
  loading,
}: {
  partners: Partner[];
  companies: Company[] | undefined;
  loading: boolean;
}) {
  const { t } = useTranslation("admin");
  const language = useSiteLanguage();
  const create = useCreateCompany();
  const remove = useDeleteCompany();
  const shared = useToggleSharedBookings();
  const sellFor = useSellFor();
  const session = useSession();
  const sellingFor = session?.account.company?.id;
  const form = useForm({
    initialValues: {
      agency_id: partners.length === 1 ? (partners[0]?.id ?? "") : "",
      name: "",
      currency: "",
    },
    validate: zod4Resolver(CompanyForm),
  });
  const partnerName = (id: string) => partners.find((p) => p.id === id)?.name ?? id;
  const columns: Column<Company>[] = [
    {
      key: "name",
      header: t("companies.name"),
      sortValue: (c) => c.name,
      cell: (c) => (
        <Text fw={600} fz="sm">
          {c.name}
        </Text>
      ),
    },
    {
      key: "partner",
      header: t("companies.partner"),
      sortValue: (c) => partnerName(c.agency_id),
      cell: (c) => partnerName(c.agency_id),
    },
    {
      key: "balance",
      header: t("companies.balance"),
      sortValue: (c) => c.balance_amount.amount,
      cell: (c) => (
        <Text fz="sm" c={c.balance_amount.amount < 0 ? "var(--mantine-color-error)" : undefined}>
          {formatMoney(c.balance_amount, language)}
        </Text>
      ),
    },
    {
      key: "credit_limit",
      header: t("companies.credit_limit"),
      sortValue: (c) => c.credit_limit.amount,
      cell: (c) => formatMoney(c.credit_limit, language),
    },
    {
      key: "agents",
      header: t("companies.agents"),
      sortValue: (c) => c.avia_managers.length,
      cell: (c) => c.avia_managers.length,
    },
    {
      key: "shared_bookings",
      header: t("companies.shared_bookings"),
      cell: (company) => (
        <Switch
          aria-label={t("companies.toggle_shared", { name: company.name })}
          checked={company.shared_bookings}
          onChange={(event) => shared.mutate({ id: company.id, active: event.currentTarget.checked })}
        />
      ),
    },
    {
      key: "actions",
      header: t("actions"),
      cell: (company) => (
        <Group gap={4} wrap="nowrap">
          {sellingFor === company.id ? (
            <Badge variant="light">{t("companies.selling_for")}</Badge>
          ) : (
            <Button
              size="compact-xs"
              variant="subtle"
              aria-label={t("companies.sell_for_name", { name: company.name })}
              onClick={() => sellFor.mutate(company.id)}
            >
              {t("companies.sell_for")}
            </Button>
          )}
          <ConfirmButton
            label={t("delete")}
            question={t("companies.confirm_delete", { name: company.name })}
            labels={{ title: t("confirm.title"), cancel: t("confirm.cancel") }}
            onConfirm={() => remove.mutate(company.id)}
          />
        </Group>
      ),
    },
  ];
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="companies-heading">
      <Title order={2} fz="h4" id="companies-heading" mb="sm">
        {t("companies.heading")}
      </Title>
      <form
        onSubmit={form.onSubmit((values) =>
          create.mutate(
            { agency_id: values.agency_id, name: values.name, currency: values.currency || undefined },
            { onSuccess: () => form.setFieldValue("name", "") },
          ),
        )}
        aria-label={t("companies.create")}
      >
        <Group align="flex-end" gap="xs" mb="sm">
          <Select
            size="xs"
            label={t("companies.partner")}
            data={partners.map((p) => ({ value: p.id, label: p.name }))}
            searchable
            {...form.getInputProps("agency_id")}
          />
          <TextInput size="xs" label={t("companies.name")} {...form.getInputProps("name")} />
          <TextInput
            size="xs"
            w={90}
            label={t("companies.currency")}
            placeholder="UAH"
            {...form.getInputProps("currency")}
          />
          <Button size="xs" type="submit" loading={create.isPending}>
            {t("companies.create")}
          </Button>
        </Group>
      </form>
      {loading ? (
        <Loader size="sm" aria-label={t("loading")} />
      ) : (
        <DataTable
          rows={companies ?? []}
          columns={columns}
          rowKey={(c) => c.id}
          filterText={(c) => `${c.name} ${partnerName(c.agency_id)}`}
          labels={{
            filter: t("filter"),
            empty: t("empty"),
            previous: t("page_previous"),
            next: t("page_next"),
          }}
          initialSort={{ column: "name", descending: false }}
        />
      )}
    </Card>
  );
}

function BalancesCard({
  companies,
  role,
  filters,
  onFilters,
}: {
  companies: Company[];
  role: Role;
  filters: BalanceFilters;
  onFilters: (next: BalanceFilters) => void;
}) {
  const { t } = useTranslation("admin");
  const language = useSiteLanguage();
  const history = useQuery({ ...balanceHistoryQueryOptions(filters), ...shownInline });
  const transaction = useTransaction();
  const form = useForm({
    initialValues: { company_id: "", kind: "top_up" as "top_up" | "correction", amount: 0, reason: "" },
    validate: zod4Resolver(TransactionForm),
  });
  const companyOptions = companies.map((c) => ({ value: c.id, label: c.name }));
  const columns: HistoryColumn<BalanceHistoryRow>[] = [
    {
      key: "at",
      header: t("balances.at"),
      cell: (line) => formatInstant(line.at, language, { seconds: true }),
    },
    { key: "company", header: t("balances.company"), cell: (line) => line.company_name },
    {
      key: "kind",
      header: t("balances.kind"),
      cell: (line) => (
        <Badge variant="light" color={line.amount.amount < 0 ? "red" : "teal"}>
          {t(`kinds.${line.kind}`)}
        </Badge>
      ),
    },
    { key: "amount", header: t("balances.amount"), cell: (line) => formatMoney(line.amount, language) },
    {
      key: "balance_after",
      header: t("balances.balance_after"),
      cell: (line) => formatMoney(line.balance_after, language),
    },
    { key: "booking", header: t("balances.booking"), cell: (line) => line.locator ?? "—" },
    {
      key: "operation",
      header: t("balances.operation"),
      cell: (line) => line.operation_id?.slice(0, 8) ?? "—",
      td: { ff: "monospace", fz: "xs" },
    },
    {
      key: "actor",
      header: t("balances.actor"),
      cell: (line) => line.actor.name ?? t(`roles.${line.actor.role}`, { defaultValue: line.actor.role }),
    },
    { key: "reason", header: t("balances.reason"), cell: (line) => line.reason ?? "—" },
  ];
  return (
    <HistoryPanel
      id="balances-heading"
      heading={t("balances.heading")}
      history={history}
      columns={columns}
      page={filters.page}
      pageSize={BALANCE_PAGE_SIZE}
      onPage={(page) => onFilters({ ...filters, page })}
      labels={{
        loading: t("loading"),
        empty: t("empty"),
        previous: t("page_previous"),
        next: t("page_next"),
      }}
      minWidth={1000}
    >
      {role === "admin" ? (
        <form
          aria-label={t("balances.submit")}
          onSubmit={form.onSubmit((values) => {
            const currency = companies.find((c) => c.id === values.company_id)?.currency ?? "UAH";
            // Major units typed, minor units sent: rounded, never a float on the wire.
            const amount = Math.round(values.amount * majorUnit(currency));
            transaction.mutate(
              { ...values, amount: { amount, currency } },
              { onSuccess: () => form.setValues({ amount: 0, reason: "" }) },
            );
          })}
        >
          <Group align="flex-end" gap="xs" mb="md">
            <Select
              size="xs"
              label={t("balances.company")}
              data={companyOptions}
              searchable
              {...form.getInputProps("company_id")}
            />
            <Select
              size="xs"
              w={150}
              label={t("balances.kind")}
              data={[
                { value: "top_up", label: t("kinds.top_up") },
                { value: "correction", label: t("kinds.correction") },
              ]}
              allowDeselect={false}
              {...form.getInputProps("kind")}
            />
            <NumberInput
              size="xs"
              w={140}
              label={t("balances.amount")}
              decimalScale={2}
              {...form.getInputProps("amount")}
            />
            <TextInput size="xs" label={t("balances.reason")} {...form.getInputProps("reason")} />
            <Button size="xs" type="submit" loading={transaction.isPending}>
              {t("balances.submit")}
            </Button>
          </Group>
        </form>
      ) : null}
      <Group gap="xs" mb="sm" align="flex-end">
        <Select
          size="xs"
          clearable
          label={t("balances.company")}
          data={companyOptions}
          value={filters.company_id ?? null}
          onChange={(value) => onFilters({ ...filters, company_id: value ?? undefined, page: 1 })}
        />
        <Select
          size="xs"
          clearable
          label={t("balances.kind")}
          data={KINDS.map((kind) => ({ value: kind, label: t(`kinds.${kind}`) }))}
          value={filters.kind ?? null}
          onChange={(value) =>
            onFilters({ ...filters, kind: (value as BalanceFilters["kind"]) ?? undefined, page: 1 })
          }
        />
        <TextInput
          size="xs"
          type="date"
          label={t("balances.date_from")}
          value={filters.date_from ?? ""}
          onChange={(event) =>
            onFilters({ ...filters, date_from: event.currentTarget.value || undefined, page: 1 })
          }
        />
        <TextInput
          size="xs"
          type="date"
          label={t("balances.date_to")}
          value={filters.date_to ?? ""}
          onChange={(event) =>
            onFilters({ ...filters, date_to: event.currentTarget.value || undefined, page: 1 })
          }
        />
      </Group>
    </HistoryPanel>
  );
}
