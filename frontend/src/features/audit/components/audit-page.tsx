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
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { DateTimeField } from "../../../components/date-time-field.tsx";
import { LoadFailed, shownInline } from "../../../components/load-failed.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { translatedValidation, useFormErrorWords } from "../../../lib/form-validation.ts";
import { downloadAnchors, downloadExport, historyQueryOptions, timeTravel, verifyLog } from "../api/audit.ts";
import {
  type AuditView,
  HISTORY_FILTERS,
  historyFiltersOf,
  historyValuesOf,
  travelValuesOf,
} from "../audit-view.ts";
import { NamePicker } from "./name-picker.tsx";
import { ReplayPanel } from "./replay-panel.tsx";

/** The history query's longest text (a filter or an id). */
const TEXT_MAX = 200;
const resolveFilters = zod4Resolver(HistoryFiltersForm);
const resolveTravel = zod4Resolver(TimeTravelForm);

const failure = (error: unknown) =>
  error instanceof ApiError && error.errors[0] ? errorText(error.errors[0]) : String(error);

function History({ view, onView }: { view: AuditView; onView: (next: AuditView) => void }) {
  const { t } = useTranslation("audit");
  const formats = useFormats();
  const say = useFormErrorWords({ max: TEXT_MAX });
  const form = useForm<HistoryFiltersValues>({
    initialValues: historyValuesOf(view),
    validate: translatedValidation(resolveFilters, say),
  });
  const filters = useMemo(() => historyFiltersOf(view), [view]);
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
          const parsed = HistoryFiltersForm.parse(values);
          const next: AuditView = { ...withoutHistory(view), shown: true };
          for (const key of HISTORY_FILTERS) if (parsed[key]) next[key] = parsed[key];
          onView(next);
        }, focusFirstError)}
      >
        <Group align="flex-end" gap="xs">
          {HISTORY_FILTERS.map((name) =>
            name === "from" || name === "to" ? (
              <DateTimeField
                key={name}
                label={t(`filters.${name}`)}
                value={form.getValues()[name] ?? ""}
                error={form.errors[name] as string | undefined}
                onChange={(value) => form.setFieldValue(name, value)}
              />
            ) : name === "actor_id" || name === "company_id" ? (
              <NamePicker
                key={name}
                kind={name === "actor_id" ? "people" : "companies"}
                label={t(`filters.${name}`)}
                value={form.getValues()[name] ?? ""}
                error={form.errors[name] as string | undefined}
                onChange={(id) => form.setFieldValue(name, id)}
              />
            ) : (
              <TextInput
                key={name}
                size="xs"
                w={160}
                label={t(`filters.${name}`)}
                {...form.getInputProps(name)}
              />
            ),
          )}
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
        <Table.ScrollContainer minWidth={1100}>
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
                  <Table.Td style={{ whiteSpace: "nowrap" }}>
                    {formats.instant(e.recorded_at, { seconds: true })}
                  </Table.Td>
                  <Table.Td>
                    {/* The event's whole name, wrapped where it must be, never cut. */}
                    <details>
                      <summary>
                        <Text span fz="xs" fw={600} ff="monospace" style={{ overflowWrap: "anywhere" }}>
                          {e.type}
                        </Text>
                        {e.traveller ? (
                          <Text span fz="xs" ml={6} data-testid="history-traveller">
                            {e.traveller.erased
                              ? t("history.traveller_erased")
                              : `${e.traveller.first_name ?? ""} ${e.traveller.last_name ?? ""}`}
                          </Text>
                        ) : null}
                      </summary>
                      <Code block>{JSON.stringify(e.data, null, 2)}</Code>
                    </details>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: "anywhere" }}>
                    {e.stream_id} #{e.stream_position}
                  </Table.Td>
                  <Table.Td>
                    <ActorCell event={e} />
                  </Table.Td>
                  <Table.Td>{e.metadata.source}</Table.Td>
                  <Table.Td>{e.metadata.trace_id}</Table.Td>
                  <Table.Td>{e.metadata.causation_id}</Table.Td>
                  <Table.Td title={e.hash}>{e.hash.slice(0, 12)}…</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {page.data?.next_after_seq && (
        <Button size="xs" variant="subtle" onClick={() => setAfterSeq(page.data?.next_after_seq ?? null)}>
          {t("filters.more")}
        </Button>
      )}
    </Stack>
  );
}

/** Who acted: the person's name and role (their id in the tooltip), or the role alone for the system. */
function ActorCell({ event }: { event: HistoryEvent }) {
  const { t } = useTranslation("audit");
  const actor = event.metadata.actor;
  if (!actor) return null;
  const role = t(`roles.${actor.role}`, actor.role);
  return (
    <Text span fz="xs" title={actor.user_id ?? undefined} data-actor-id={actor.user_id ?? undefined}>
      {event.actor_name ? `${event.actor_name} (${role})` : role}
    </Text>
  );
}

/** The address without the history's filters. */
const withoutHistory = (view: AuditView): AuditView =>
  Object.fromEntries(
    Object.entries(view).filter(
      ([key]) => key !== "shown" && !(HISTORY_FILTERS as readonly string[]).includes(key),
    ),
  );

function TimeTravel({ view, onView }: { view: AuditView; onView: (next: AuditView) => void }) {
  const { t } = useTranslation("audit");
  const say = useFormErrorWords({ max: TEXT_MAX });
  const form = useForm<TimeTravelValues>({
    initialValues: travelValuesOf(view),
    validate: translatedValidation(resolveTravel, say),
  });
  // The stream and moments the address names are shown as of then (a reload shows the same state).
  const asked =
    view.id && view.at
      ? { kind: view.kind ?? "booking", id: view.id, at: view.at, compare: view.compare }
      : null;
  const travel = useQuery({
    queryKey: ["audit", "as_of", asked],
    queryFn: () => (asked ? timeTravel(asked.kind, asked.id, asked.at, asked.compare ?? null) : null),
    enabled: asked !== null,
    ...shownInline,
  });
  const result: AsOfResponse | null | undefined = travel.data;
  return (
    <Stack gap="sm">
      <form
        noValidate
        onSubmit={form.onSubmit((values) => {
          const parsed = TimeTravelForm.parse(values);
          const { kind: _k, id: _i, at: _a, compare: _c, ...rest } = view;
          onView({
            ...rest,
            kind: parsed.kind,
            id: parsed.id,
            at: parsed.at,
            ...(parsed.compare ? { compare: parsed.compare } : {}),
          });
        }, focusFirstError)}
      >
        <Group align="flex-end" gap="xs">
          <SegmentedControl
            size="xs"
            aria-label={t("travel.kind")}
            {...form.getInputProps("kind")}
            data={(["booking", "balance", "channel", "traveller"] as const).map((k) => ({
              value: k,
              label: t(`travel.kinds.${k}`),
            }))}
          />
          <TextInput size="xs" label={t("travel.id")} {...form.getInputProps("id")} />
          <DateTimeField
            label={t("travel.at")}
            value={form.getValues().at ?? ""}
            error={form.errors.at as string | undefined}
            onChange={(value) => form.setFieldValue("at", value)}
          />
          <DateTimeField
            label={t("travel.compare")}
            value={form.getValues().compare ?? ""}
            error={form.errors.compare as string | undefined}
            onChange={(value) => form.setFieldValue("compare", value)}
          />
          <Button size="xs" type="submit" loading={travel.isFetching}>
            {t("travel.show")}
          </Button>
        </Group>
      </form>
      <LoadFailed query={travel} />
      {result && (
        <Stack gap="xs">
          <Text fz="sm">{t("travel.version", { count: result.as_of.version })}</Text>
          {isErasedTraveller(result.as_of.state) ? (
            <Badge color="gray" variant="light" tt="none" data-testid="travel-erased">
              {t("travel.erased")}
            </Badge>
          ) : null}
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

/** A traveller's past whose personal fields are gone with its key (erased): said in words, not only in the JSON. */
const isErasedTraveller = (state: unknown) =>
  typeof state === "object" &&
  state !== null &&
  (state as { personal_erased?: unknown }).personal_erased === true;

/**
 * The audit screen: event history (and its export), time travel, and for the log's readers its verifier and the
 * replay of projections side by side (switching one: administrators only).
 */
export function AuditPage({
  canVerify,
  canSwitch,
  view = {},
  onView = () => {},
}: {
  canVerify: boolean;
  canSwitch: boolean;
  /** The tab, filters, stream and moments, kept in the address. */
  view?: AuditView;
  onView?: (next: AuditView) => void;
}) {
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
        <Tabs
          value={view.tab ?? "history"}
          onChange={(tab) => {
            const { tab: _tab, ...rest } = view;
            onView(tab && tab !== "history" ? { ...rest, tab: tab as AuditView["tab"] } : rest);
          }}
          keepMounted={false}
        >
          <Tabs.List>
            <Tabs.Tab value="history">{t("tabs.history")}</Tabs.Tab>
            <Tabs.Tab value="time_travel">{t("tabs.time_travel")}</Tabs.Tab>
            {canVerify && <Tabs.Tab value="verify">{t("tabs.verify")}</Tabs.Tab>}
            {canVerify && <Tabs.Tab value="replay">{t("tabs.replay")}</Tabs.Tab>}
          </Tabs.List>
          <Tabs.Panel value="history" pt="sm">
            <History view={view} onView={onView} />
          </Tabs.Panel>
          <Tabs.Panel value="time_travel" pt="sm">
            <TimeTravel view={view} onView={onView} />
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
