import {
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  Select,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { type DirectoryHistoryRow, InviteUserRequest, type Partner } from "@skyward/contracts/administration";
import { useQuery } from "@tanstack/react-query";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type HistoryColumn, HistoryPanel } from "../../../components/history-panel.tsx";
import { LoadFailed, shownInline } from "../../../components/load-failed.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { Modal } from "../../../components/ui/modal.tsx";
import { personalData } from "../../../lib/personal-data.ts";
import {
  BALANCE_PAGE_SIZE,
  changesQueryOptions,
  joinRequestsQueryOptions,
  supervisorsQueryOptions,
  useDecideJoinRequest,
  useInviteSupervisor,
  useRemoveSupervisor,
  useSwitchSupervisor,
} from "../api/admin.ts";

/** The invitation form is checked with the contract's own request schema. */
const InviteForm = InviteUserRequest.pick({ email: true, first_name: true, last_name: true, language: true });

/** A partner's supervisors: invited by e-mail, switched off, removed (after a confirmation). */
export function SupervisorsCard({ partners }: { partners: Partner[] }) {
  const { t } = useTranslation("admin");
  const [agencyId, setAgencyId] = useState(partners.length === 1 ? (partners[0]?.id ?? "") : "");
  const chosen = agencyId || partners[0]?.id || "";
  const people = useQuery(supervisorsQueryOptions(chosen));
  const invite = useInviteSupervisor();
  const switchOne = useSwitchSupervisor();
  const remove = useRemoveSupervisor();
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const form = useForm({
    initialValues: { email: "", first_name: "", last_name: "", language: "en" as const },
    validate: zod4Resolver(InviteForm),
  });
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="supervisors-heading">
      <Title order={2} fz="h4" id="supervisors-heading" mb="sm">
        {t("people.heading")}
      </Title>
      <Group align="flex-end" gap="xs" mb="sm">
        <Select
          size="xs"
          label={t("companies.partner")}
          data={partners.map((p) => ({ value: p.id, label: p.name }))}
          value={chosen || null}
          onChange={(value) => setAgencyId(value ?? "")}
          allowDeselect={false}
          searchable
        />
      </Group>
      <form
        aria-label={t("people.invite")}
        onSubmit={form.onSubmit((values) =>
          invite.mutate({ agencyId: chosen, ...values }, { onSuccess: () => form.reset() }),
        )}
      >
        <Group align="flex-end" gap="xs" mb="sm">
          <TextInput size="xs" type="email" label={t("people.email")} {...form.getInputProps("email")} />
          <TextInput size="xs" label={t("people.first_name")} {...form.getInputProps("first_name")} />
          <TextInput size="xs" label={t("people.last_name")} {...form.getInputProps("last_name")} />
          <Select
            size="xs"
            w={110}
            label={t("people.language")}
            data={["en", "ua", "pl", "fr", "es"]}
            allowDeselect={false}
            {...form.getInputProps("language")}
          />
          <Button size="xs" type="submit" loading={invite.isPending} disabled={!chosen}>
            {t("people.invite")}
          </Button>
        </Group>
      </form>
      {people.isPending && chosen ? (
        <Loader size="sm" aria-label={t("loading")} />
      ) : (people.data ?? []).length === 0 ? (
        <Text c="dimmed">{t("empty")}</Text>
      ) : (
        <Table.ScrollContainer minWidth={480} type="native">
          <Table highlightOnHover verticalSpacing={6} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("people.name")}</Table.Th>
                <Table.Th>{t("people.email")}</Table.Th>
                <Table.Th>{t("people.active")}</Table.Th>
                <Table.Th>{t("actions")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody {...personalData}>
              {people.data?.map((person) => {
                const name = `${person.first_name} ${person.last_name}`;
                return (
                  <Table.Tr key={person.id}>
                    <Table.Td fw={600}>{name}</Table.Td>
                    <Table.Td>{person.email}</Table.Td>
                    <Table.Td>
                      <Switch
                        aria-label={t("people.toggle", { name })}
                        checked={person.active}
                        onChange={(event) =>
                          switchOne.mutate({
                            agencyId: chosen,
                            id: person.id,
                            active: event.currentTarget.checked,
                          })
                        }
                      />
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-xs"
                        color="red"
                        variant="subtle"
                        onClick={() => setRemoving({ id: person.id, name })}
                      >
                        {t("delete")}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={t("confirm.title")}
        centered
        closeButtonProps={{ "aria-label": t("confirm.cancel") }}
      >
        <Text mb="md">{t("people.confirm_delete", { name: removing?.name ?? "" })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setRemoving(null)}>
            {t("confirm.cancel")}
          </Button>
          <Button
            color="red"
            onClick={() => {
              if (removing) remove.mutate({ agencyId: chosen, id: removing.id });
              setRemoving(null);
            }}
          >
            {t("delete")}
          </Button>
        </Group>
      </Modal>
    </Card>
  );
}

/** Connection requests waiting for a decision: accepted into a company of the partner, or rejected. */
export function JoinRequestsCard({
  companies,
}: {
  companies: { id: string; name: string; agency_id: string }[];
}) {
  const { t } = useTranslation("admin");
  const requests = useQuery({ ...joinRequestsQueryOptions(), ...shownInline });
  const decide = useDecideJoinRequest();
  const [companyFor, setCompanyFor] = useState<Record<string, string>>({});
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="requests-heading">
      <Title order={2} fz="h4" id="requests-heading" mb="sm">
        {t("requests.heading")}
      </Title>
      {requests.isPending ? (
        <Loader size="sm" aria-label={t("loading")} />
      ) : requests.isError ? (
        <LoadFailed query={requests} />
      ) : (requests.data ?? []).length === 0 ? (
        <Text c="dimmed">{t("empty")}</Text>
      ) : (
        <Table highlightOnHover verticalSpacing={6} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("requests.agent")}</Table.Th>
              <Table.Th>{t("companies.partner")}</Table.Th>
              <Table.Th>{t("requests.company")}</Table.Th>
              <Table.Th>{t("actions")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody {...personalData}>
            {requests.data?.map((request) => {
              const company = companyFor[request.id] ?? request.company_id ?? "";
              return (
                <Table.Tr key={request.id}>
                  <Table.Td>
                    {`${request.first_name ?? ""} ${request.last_name ?? ""}`.trim() || request.email}
                  </Table.Td>
                  <Table.Td>{request.agency_name}</Table.Td>
                  <Table.Td>
                    <Select
                      size="xs"
                      aria-label={t("requests.company")}
                      data={companies
                        .filter((c) => c.agency_id === request.agency_id)
                        .map((c) => ({ value: c.id, label: c.name }))}
                      value={company || null}
                      onChange={(value) => setCompanyFor({ ...companyFor, [request.id]: value ?? "" })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="compact-xs"
                        disabled={!company}
                        onClick={() =>
                          decide.mutate({ id: request.id, status: "accepted", company_id: company })
                        }
                      >
                        {t("requests.accept")}
                      </Button>
                      <Button
                        size="compact-xs"
                        color="red"
                        variant="subtle"
                        onClick={() => decide.mutate({ id: request.id, status: "rejected" })}
                      >
                        {t("requests.reject")}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

/** The partner and company change history: who changed what, when, from which source; each line links to its event. */
export function ChangesCard() {
  const { t } = useTranslation("admin");
  const formats = useFormats();
  const [page, setPage] = useState(1);
  const changes = useQuery({ ...changesQueryOptions(page), ...shownInline });
  const columns: HistoryColumn<DirectoryHistoryRow>[] = [
    { key: "at", header: t("balances.at"), cell: (line) => formats.instant(line.at, { seconds: true }) },
    {
      key: "change",
      header: t("changes.change"),
      cell: (line) => t(`events.${line.type}`, { defaultValue: line.type }),
    },
    {
      key: "actor",
      header: t("balances.actor"),
      cell: (line) => t(`roles.${line.actor.role}`, { defaultValue: line.actor.role }),
    },
    {
      key: "source",
      header: t("changes.source"),
      cell: (line) => t(`sources.${line.source}`, { defaultValue: line.source }),
    },
    {
      key: "event",
      header: t("changes.event"),
      cell: (line) => (
        <Anchor href={line.link} fz="sm">
          {t("changes.open")}
        </Anchor>
      ),
    },
  ];
  return (
    <HistoryPanel
      id="changes-heading"
      heading={t("changes.heading")}
      history={changes}
      columns={columns}
      page={page}
      pageSize={BALANCE_PAGE_SIZE}
      onPage={setPage}
      labels={{
        loading: t("loading"),
        empty: t("empty"),
        previous: t("page_previous"),
        next: t("page_next"),
      }}
      minWidth={800}
    />
  );
}
