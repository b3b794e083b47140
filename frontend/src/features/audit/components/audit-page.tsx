import {
  Alert,
  Badge,
  Button,
  Code,
  Container,
  Group,
  Loader,
  SegmentedControl,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import type { AsOfResponse, HistoryEvent, VerifyReport } from "@skyward/contracts/audit";
import {
  HistoryFiltersForm,
  type HistoryFiltersValues,
  TimeTravelForm,
  type TimeTravelValues,
} from "@skyward/contracts/audit-forms";
import { useMutation, useQuery } from "@tanstack/react-query";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadFailed, shownInline } from "../../../components/load-failed.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { translatedValidation, useFormErrorWords } from "../../../lib/form-validation.ts";
import {
  downloadAnchors,
  downloadExport,
  type HistoryFilters,
  historyQueryOptions,
  timeTravel,
  verifyLog,
} from "../api/audit.ts";
import { ReplayPanel } from "./replay-panel.tsx";

const FILTERS = ["locator", "stream_id", "trace_id", "actor_id", "company_id", "from", "to"] as const;
/** The history query's longest text (a filter or an id). */
const TEXT_MAX = 200;
const resolveFilters = zod4Resolver(HistoryFiltersForm);
const resolveTravel = zod4Resolver(TimeTravelForm);

const failure = (error: unknown) =>
  error instanceof ApiError && error.errors[0] ? errorText(error.errors[0]) : String(error);

function History() {
  const { t } = useTranslation("audit");
  const formats = useFormats();
  const say = useFormErrorWords({ max: TEXT_MAX });
  const form = useForm<HistoryFiltersValues>({
    initialValues: Object.fromEntries(FILTERS.map((name) => [name, ""])) as HistoryFiltersValues,
    validate: translatedValidation(resolveFilters, say),
  });
  const [filters, setFilters] = useState<HistoryFilters | null>(null);
  const [afterSeq, setAfterSeq] = useState<number | null>(null);
  const page = useQuery({
    ...historyQueryOptions(filters ?? {}, afterSeq),
    enabled: filters !== null,
    ...shownInline,
  });
  return (
    <Stack gap="sm">
      <form
        noValidate
        onSubmit={form.onSubmit((values) => {
          setAfterSeq(null);
          setFilters(HistoryFiltersForm.parse(values));
        }, focusFirstError)}
      >
        <Group align="flex-end" gap="xs">
          {FILTERS.map((name) => (
            <TextInput
              key={name}
              size="xs"
              w={name === "from" || name === "to" ? 190 : 160}
              type={name === "from" || name === "to" ? "datetime-local" : "text"}
              label={t(`filters.${name}`)}
              {...form.getInputProps(name)}
            />
          ))}
          <Button size="xs" type="submit">
            {t("filters.search")}
          </Button>
          {filters && (
            <Button size="xs" variant="default" onClick={() => downloadExport(filters)}>
              {t("verify.export")}
            </Button>
          )}
        </Group>
      </form>
      {page.isFetching && <Loader size="sm" />}
      <LoadFailed query={page} />
      {page.data && page.data.events.length === 0 && <Text c="dimmed">{t("history.empty")}</Text>}
      {page.data && page.data.events.length > 0 && (
        <Table striped fz="xs" aria-label={t("tabs.history")}>
          <Table.Thead>
            <Table.Tr>
              {(["time", "event", "stream", "actor", "source", "trace", "causation", "hash"] as const).map(
                (c) => (
                  <Table.Th key={c}>{t(`history.${c}`)}</Table.Th>
                ),
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {page.data.events.map((e: HistoryEvent) => (
              <Table.Tr key={e.seq}>
                <Table.Td>{formats.instant(e.recorded_at, { seconds: true })}</Table.Td>
                <Table.Td>
                  <details>
                    <summary>
                      <Badge size="sm" variant="light">
                        {e.type}
                      </Badge>
                    </summary>
                    <Code block>{JSON.stringify(e.data, null, 2)}</Code>
                  </details>
                </Table.Td>
                <Table.Td>
                  {e.stream_id} #{e.stream_position}
                </Table.Td>
                <Table.Td>
                  {e.metadata.actor?.role} {e.metadata.actor?.user_id ?? ""}
                </Table.Td>
                <Table.Td>{e.metadata.source}</Table.Td>
                <Table.Td>{e.metadata.trace_id}</Table.Td>
                <Table.Td>{e.metadata.causation_id}</Table.Td>
                <Table.Td title={e.hash}>{e.hash.slice(0, 12)}…</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {page.data?.next_after_seq && (
        <Button size="xs" variant="subtle" onClick={() => setAfterSeq(page.data?.next_after_seq ?? null)}>
          {t("filters.more")}
        </Button>
      )}
    </Stack>
  );
}

function TimeTravel() {
  const { t } = useTranslation("audit");
  const say = useFormErrorWords({ max: TEXT_MAX });
  const form = useForm<TimeTravelValues>({
    initialValues: { kind: "booking", id: "", at: "", compare: "" },
    validate: translatedValidation(resolveTravel, say),
  });
  const travel = useMutation({
    mutationFn: ({ kind, id, at, compare }: TimeTravelForm) => timeTravel(kind, id, at, compare ?? null),
  });
  const result: AsOfResponse | undefined = travel.data;
  return (
    <Stack gap="sm">
      <form
        noValidate
        onSubmit={form.onSubmit((values) => travel.mutate(TimeTravelForm.parse(values)), focusFirstError)}
      >
        <Group align="flex-end" gap="xs">
          <SegmentedControl
            size="xs"
            aria-label={t("travel.kind")}
            {...form.getInputProps("kind")}
            data={(["booking", "balance", "channel"] as const).map((k) => ({
              value: k,
              label: t(`travel.kinds.${k}`),
            }))}
          />
          <TextInput size="xs" label={t("travel.id")} {...form.getInputProps("id")} />
          <TextInput size="xs" type="datetime-local" label={t("travel.at")} {...form.getInputProps("at")} />
          <TextInput
            size="xs"
            type="datetime-local"
            label={t("travel.compare")}
            {...form.getInputProps("compare")}
          />
          <Button size="xs" type="submit" loading={travel.isPending}>
            {t("travel.show")}
          </Button>
        </Group>
      </form>
      {travel.error && <Alert color="red">{failure(travel.error)}</Alert>}
      {result && (
        <Stack gap="xs">
          <Text fz="sm">{t("travel.version", { count: result.as_of.version })}</Text>
          {result.as_of.version === 0 ? (
            <Text c="dimmed">{t("travel.nothing")}</Text>
          ) : (
            <Code block>{JSON.stringify(result.as_of.state, null, 2)}</Code>
          )}
          {result.compared && (
            <>
              <Title order={3} fz="md">
                {t("travel.changes")}
              </Title>
              {result.changes.length === 0 ? (
                <Text c="dimmed">{t("travel.no_changes")}</Text>
              ) : (
                <Table fz="xs">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t("travel.path")}</Table.Th>
                      <Table.Th>{t("travel.before")}</Table.Th>
                      <Table.Th>{t("travel.after")}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {result.changes.map((c) => (
                      <Table.Tr key={c.path}>
                        <Table.Td>{c.path}</Table.Td>
                        <Table.Td>{JSON.stringify(c.before)}</Table.Td>
                        <Table.Td>{JSON.stringify(c.after)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </>
          )}
        </Stack>
      )}
    </Stack>
  );
}

function Verify() {
  const { t } = useTranslation("audit");
  const verify = useMutation({ mutationFn: verifyLog });
  const report: VerifyReport | undefined = verify.data;
  return (
    <Stack gap="sm" align="flex-start">
      <Group gap="xs">
        <Button size="xs" onClick={() => verify.mutate()} loading={verify.isPending}>
          {t("verify.run")}
        </Button>
        <Button size="xs" variant="default" onClick={() => downloadAnchors()}>
          {t("verify.anchors")}
        </Button>
      </Group>
      {verify.error && <Alert color="red">{failure(verify.error)}</Alert>}
      {report?.ok && (
        <Alert color="green">
          {t("verify.ok", { checked: report.checked, anchors: report.anchors_checked })}
        </Alert>
      )}
      {report && !report.ok && report.problem && (
        <Alert color="red">
          {t("verify.broken", {
            kind: t(`verify.kinds.${report.problem.kind}`),
            seq: report.problem.seq ?? "?",
          })}
          {report.problem.event_id && (
            <Text fz="sm">
              {t("verify.event", { event: report.problem.event_id, stream: report.problem.stream_id ?? "?" })}
            </Text>
          )}
        </Alert>
      )}
      {report && report.unchained > 0 && (
        <Text c="dimmed">{t("verify.unchained", { count: report.unchained })}</Text>
      )}
    </Stack>
  );
}

/**
 * The audit screen: event history (and its export), time travel, and for the log's readers its verifier and the
 * replay of projections side by side (switching one: administrators only).
 */
export function AuditPage({ canVerify, canSwitch }: { canVerify: boolean; canSwitch: boolean }) {
  const { t } = useTranslation("audit");
  return (
    <Container fluid px="lg" py="md" maw={1480}>
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={1} fz={22}>
            {t("title")}
          </Title>
          <Text c="dimmed" fz="sm">
            {t("lead")}
          </Text>
        </Stack>
        <Tabs defaultValue="history" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="history">{t("tabs.history")}</Tabs.Tab>
            <Tabs.Tab value="time_travel">{t("tabs.time_travel")}</Tabs.Tab>
            {canVerify && <Tabs.Tab value="verify">{t("tabs.verify")}</Tabs.Tab>}
            {canVerify && <Tabs.Tab value="replay">{t("tabs.replay")}</Tabs.Tab>}
          </Tabs.List>
          <Tabs.Panel value="history" pt="sm">
            <History />
          </Tabs.Panel>
          <Tabs.Panel value="time_travel" pt="sm">
            <TimeTravel />
          </Tabs.Panel>
          {canVerify && (
            <Tabs.Panel value="verify" pt="sm">
              <Verify />
            </Tabs.Panel>
          )}
          {canVerify && (
            <Tabs.Panel value="replay" pt="sm">
              <ReplayPanel canSwitch={canSwitch} />
            </Tabs.Panel>
          )}
        </Tabs>
      </Stack>
    </Container>
  );
}
