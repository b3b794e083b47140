import {
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  NumberInput,
  Pagination,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import type { Company, Partner } from "@skyward/contracts/administration";
import { BalanceMovementKind } from "@skyward/contracts/balances";
import { useQuery } from "@tanstack/react-query";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import type { Language } from "../../../lib/i18n.ts";
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
  useTogglePartnerFlag,
  useToggleSharedBookings,
  useTransaction,
} from "../api/admin.ts";
import { ChangesCard, JoinRequestsCard, SupervisorsCard } from "./people-cards.tsx";

const FLAGS: PartnerFlag[] = ["production_api_on", "corporate_number_on", "ghost_segments_remarks_on"];
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
  const partners = useQuery(partnersQueryOptions());
  const companies = useQuery(companiesQueryOptions());
  return (
    <Stack gap="lg" p="md" maw={1280} mx="auto" w="100%">
      <Title order={1} fz="h2">
        {t("title")}
      </Title>
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

/** A destructive action asks first; the dialog names what goes. */
function ConfirmButton({
  label,
  question,
  onConfirm,
}: {
  label: string;
  question: string;
  onConfirm: () => void;
}) {
  const { t } = useTranslation("admin");
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="compact-xs" color="red" variant="subtle" onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t("confirm.title")} centered>
        <Text mb="md">{question}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setOpen(false)}>
            {t("confirm.cancel")}
          </Button>
          <Button
            color="red"
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            {label}
          </Button>
        </Group>
      </Modal>
    </>
  );
}

/** A column header that sorts the table by it (ascending, then descending). */
function SortHeader<K extends string>({
  column,
  sort,
  onSort,
  children,
}: {
  column: K;
  sort: { column: K; descending: boolean };
  onSort: (next: { column: K; descending: boolean }) => void;
  children: string;
}) {
  const active = sort.column === column;
  return (
    <Table.Th aria-sort={active ? (sort.descending ? "descending" : "ascending") : "none"}>
      <UnstyledButton
        fw={600}
        fz="sm"
        onClick={() => onSort({ column, descending: active ? !sort.descending : false })}
      >
        {children} {active ? (sort.descending ? "↓" : "↑") : ""}
      </UnstyledButton>
    </Table.Th>
  );
}

function sorted<Row>(rows: Row[], key: (row: Row) => string | number, descending: boolean): Row[] {
  return [...rows].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return descending ? -order : order;
  });
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
  const [filter, setFilter] = useState("");
  const [sort, setSort] = useState<{ column: "name" | "companies"; descending: boolean }>({
    column: "name",
    descending: false,
  });
  const form = useForm({ initialValues: { name: "" }, validate: zod4Resolver(PartnerForm) });
  const administrator = role !== "supervisor";
  const rows = sorted(
    (partners ?? []).filter((p) => p.name.toLowerCase().includes(filter.trim().toLowerCase())),
    (p) => (sort.column === "name" ? p.name : p.companies_count),
    sort.descending,
  );
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="partners-heading">
      <Title order={2} fz="h4" id="partners-heading" mb="sm">
        {t("partners.heading")}
      </Title>
      <Group align="flex-end" mb="sm" justify="space-between">
        <TextInput
          label={t("filter")}
          value={filter}
          onChange={(event) => setFilter(event.currentTarget.value)}
          size="xs"
        />
        {administrator ? (
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
        ) : null}
      </Group>
      {loading ? (
        <Loader size="sm" aria-label={t("loading")} />
      ) : rows.length === 0 ? (
        <Text c="dimmed">{t("empty")}</Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table highlightOnHover verticalSpacing={6} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <SortHeader column="name" sort={sort} onSort={setSort}>
                  {t("partners.name")}
                </SortHeader>
                <SortHeader column="companies" sort={sort} onSort={setSort}>
                  {t("partners.companies")}
                </SortHeader>
                <Table.Th>{t("partners.supervisors")}</Table.Th>
                <Table.Th>{t("partners.channels")}</Table.Th>
                {FLAGS.map((flag) => (
                  <Table.Th key={flag}>{t(`flags.${flag}`)}</Table.Th>
                ))}
                {administrator ? <Table.Th>{t("actions")}</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((partner) => (
                <Table.Tr key={partner.id}>
                  <Table.Td fw={600}>{partner.name}</Table.Td>
                  <Table.Td>{partner.companies_count}</Table.Td>
                  <Table.Td>{partner.supervisors_count}</Table.Td>
                  <Table.Td>{partner.channels.length}</Table.Td>
                  {FLAGS.map((flag) => (
                    <Table.Td key={flag}>
                      <Switch
                        aria-label={t("flags.toggle", { flag: t(`flags.${flag}`), name: partner.name })}
                        checked={partner[flag]}
                        disabled={!administrator}
                        onChange={(event) =>
                          toggle.mutate({ id: partner.id, flag, active: event.currentTarget.checked })
                        }
                      />
                    </Table.Td>
                  ))}
                  {administrator ? (
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          onClick={() => duplicate.mutate(partner.id)}
                        >
                          {t("partners.duplicate")}
                        </Button>
                        <ConfirmButton
                          label={t("delete")}
                          question={t("partners.confirm_delete", { name: partner.name })}
                          onConfirm={() => remove.mutate(partner.id)}
                        />
                      </Group>
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
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
  const { t, i18n } = useTranslation("admin");
  const language = i18n.language as Language;
  const create = useCreateCompany();
  const remove = useDeleteCompany();
  const shared = useToggleSharedBookings();
  const sellFor = useSellFor();
  const session = useSession();
  const sellingFor = session?.account.company?.id;
  const [sort, setSort] = useState<{ column: "name" | "balance"; descending: boolean }>({
    column: "name",
    descending: false,
  });
  const form = useForm({
    initialValues: {
      agency_id: partners.length === 1 ? (partners[0]?.id ?? "") : "",
      name: "",
      currency: "",
    },
    validate: zod4Resolver(CompanyForm),
  });
  const partnerName = (id: string) => partners.find((p) => p.id === id)?.name ?? id;
  const rows = sorted(
    companies ?? [],
    (c) => (sort.column === "name" ? c.name : c.balance_amount.amount),
    sort.descending,
  );
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
      ) : rows.length === 0 ? (
        <Text c="dimmed">{t("empty")}</Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table highlightOnHover verticalSpacing={6} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <SortHeader column="name" sort={sort} onSort={setSort}>
                  {t("companies.name")}
                </SortHeader>
                <Table.Th>{t("companies.partner")}</Table.Th>
                <SortHeader column="balance" sort={sort} onSort={setSort}>
                  {t("companies.balance")}
                </SortHeader>
                <Table.Th>{t("companies.credit_limit")}</Table.Th>
                <Table.Th>{t("companies.agents")}</Table.Th>
                <Table.Th>{t("companies.shared_bookings")}</Table.Th>
                <Table.Th>{t("actions")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((company) => (
                <Table.Tr key={company.id}>
                  <Table.Td fw={600}>{company.name}</Table.Td>
                  <Table.Td>{partnerName(company.agency_id)}</Table.Td>
                  <Table.Td>
                    <Text fz="sm" c={company.balance_amount.amount < 0 ? "red" : undefined}>
                      {formatMoney(company.balance_amount, language)}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatMoney(company.credit_limit, language)}</Table.Td>
                  <Table.Td>{company.avia_managers.length}</Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={t("companies.toggle_shared", { name: company.name })}
                      checked={company.shared_bookings}
                      onChange={(event) =>
                        shared.mutate({ id: company.id, active: event.currentTarget.checked })
                      }
                    />
                  </Table.Td>
                  <Table.Td>
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
                        onConfirm={() => remove.mutate(company.id)}
                      />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
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
  const { t, i18n } = useTranslation("admin");
  const language = i18n.language as Language;
  const history = useQuery(balanceHistoryQueryOptions(filters));
  const transaction = useTransaction();
  const form = useForm({
    initialValues: { company_id: "", kind: "top_up" as "top_up" | "correction", amount: 0, reason: "" },
    validate: zod4Resolver(TransactionForm),
  });
  const companyOptions = companies.map((c) => ({ value: c.id, label: c.name }));
  const pages = Math.max(1, Math.ceil((history.data?.meta.total ?? 0) / BALANCE_PAGE_SIZE));
  const dateTime = new Intl.DateTimeFormat(language === "ua" ? "uk" : language, {
    dateStyle: "short",
    timeStyle: "short",
  });
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="balances-heading">
      <Title order={2} fz="h4" id="balances-heading" mb="sm">
        {t("balances.heading")}
      </Title>
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
      {history.isPending ? (
        <Loader size="sm" aria-label={t("loading")} />
      ) : (history.data?.data.length ?? 0) === 0 ? (
        <Text c="dimmed">{t("empty")}</Text>
      ) : (
        <Table.ScrollContainer minWidth={1000}>
          <Table highlightOnHover verticalSpacing={6} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("balances.at")}</Table.Th>
                <Table.Th>{t("balances.company")}</Table.Th>
                <Table.Th>{t("balances.kind")}</Table.Th>
                <Table.Th>{t("balances.amount")}</Table.Th>
                <Table.Th>{t("balances.balance_after")}</Table.Th>
                <Table.Th>{t("balances.booking")}</Table.Th>
                <Table.Th>{t("balances.operation")}</Table.Th>
                <Table.Th>{t("balances.actor")}</Table.Th>
                <Table.Th>{t("balances.reason")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {history.data?.data.map((line) => (
                <Table.Tr key={line.event_id} data-event-id={line.event_id}>
                  <Table.Td>{dateTime.format(new Date(line.at))}</Table.Td>
                  <Table.Td>{line.company_name}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={line.amount.amount < 0 ? "red" : "teal"}>
                      {t(`kinds.${line.kind}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{formatMoney(line.amount, language)}</Table.Td>
                  <Table.Td>{formatMoney(line.balance_after, language)}</Table.Td>
                  <Table.Td>{line.locator ?? "—"}</Table.Td>
                  <Table.Td ff="monospace" fz="xs">
                    {line.operation_id?.slice(0, 8) ?? "—"}
                  </Table.Td>
                  <Table.Td>
                    {line.actor.name ?? t(`roles.${line.actor.role}`, { defaultValue: line.actor.role })}
                  </Table.Td>
                  <Table.Td>{line.reason ?? "—"}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group justify="flex-end" mt="sm">
        <Pagination
          size="sm"
          total={pages}
          value={filters.page}
          onChange={(page) => onFilters({ ...filters, page })}
          aria-label={t("pages")}
        />
      </Group>
    </Card>
  );
}
