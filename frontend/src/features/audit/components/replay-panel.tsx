import { Alert, Badge, Button, Group, NativeSelect, Progress, Stack, Table, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import { ReplayForm, type ReplayFormValues } from "@skyward/contracts/audit-forms";
import type { ReplayRun } from "@skyward/contracts/replay";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { translatedValidation, useFormErrorWords } from "../../../lib/form-validation.ts";
import { replayRunQueryOptions, replaysQueryOptions, startReplay, switchReplay } from "../api/replays.ts";

const failure = (error: unknown) =>
  error instanceof ApiError && error.errors[0] ? errorText(error.errors[0]) : String(error);

const resolveReplay = zod4Resolver(ReplayForm);

const finished = (run: ReplayRun) => run.status === "done" || run.status === "failed";

/** The comparison of one run: per table, row counts and checksums of live and replay. */
function Comparison({ run }: { run: ReplayRun }) {
  const { t } = useTranslation("audit");
  const report = run.report;
  if (!report) return null;
  return (
    <Stack gap="xs">
      {run.kind === "switch" ? (
        <Alert color={report.switched_to !== null ? "green" : "red"}>
          {report.switched_to !== null
            ? t("replay.switched", { generation: report.switched_to })
            : t("replay.not_switched")}
        </Alert>
      ) : (
        <Alert color={report.agree ? "green" : "red"}>
          {report.agree ? t("replay.agree", { events: report.events }) : t("replay.differ")}
        </Alert>
      )}
      <Table fz="xs" withTableBorder aria-label={t("replay.comparison")}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("replay.table")}</Table.Th>
            <Table.Th>{t("replay.live_rows")}</Table.Th>
            <Table.Th>{t("replay.replay_rows")}</Table.Th>
            <Table.Th>{t("replay.live_checksum")}</Table.Th>
            <Table.Th>{t("replay.replay_checksum")}</Table.Th>
            <Table.Th>{t("replay.result")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.tables.map((table) => (
            <Table.Tr key={table.table}>
              <Table.Td>{table.table}</Table.Td>
              <Table.Td>{table.live_rows}</Table.Td>
              <Table.Td>{table.replay_rows}</Table.Td>
              <Table.Td ff="monospace">{table.live_checksum}</Table.Td>
              <Table.Td ff="monospace">{table.replay_checksum}</Table.Td>
              <Table.Td>
                <Badge size="sm" color={table.equal ? "green" : "red"} variant="light">
                  {table.equal ? t("replay.equal") : t("replay.different")}
                </Badge>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** One run: its progress bar while it replays, then its comparison (and, for a compare that agreed, the switch). */
function RunView({
  id,
  canSwitch,
  onRun,
}: {
  id: string;
  canSwitch: boolean;
  onRun: (run: ReplayRun) => void;
}) {
  const { t } = useTranslation("audit");
  const queryClient = useQueryClient();
  const run = useQuery(replayRunQueryOptions(id));
  const toSwitch = useMutation({
    mutationFn: switchReplay,
    onSuccess: (started) => {
      void queryClient.invalidateQueries({ queryKey: replaysQueryOptions().queryKey });
      onRun(started);
    },
  });
  const data = run.data;
  if (run.error) return <Alert color="red">{failure(run.error)}</Alert>;
  if (!data) return null;
  const percent =
    data.status === "done" ? 100 : data.total_events > 0 ? (100 * data.done_events) / data.total_events : 0;
  const agreed = data.kind === "compare" && data.status === "done" && data.report?.agree === true;
  return (
    <Stack gap="xs">
      <Text fz="sm">
        {t(`replay.kinds.${data.kind}`, { projection: data.projection })} —{" "}
        {t(`replay.status.${data.status}`)}
      </Text>
      {!finished(data) || data.status === "done" ? (
        <Progress
          value={percent}
          size="lg"
          animated={!finished(data)}
          aria-label={t("replay.progress", { done: data.done_events, total: data.total_events })}
        />
      ) : null}
      <Text fz="xs" c="dimmed">
        {t("replay.progress", { done: data.done_events, total: data.total_events })}
      </Text>
      {data.status === "failed" && (
        <Alert color="red">{t("replay.failed", { error: data.error ?? "" })}</Alert>
      )}
      {data.status === "done" && <Comparison run={data} />}
      {data.kind === "compare" && data.status === "done" && (
        <Group gap="xs">
          <Button
            size="xs"
            color="orange.9"
            disabled={!agreed || !canSwitch}
            loading={toSwitch.isPending}
            onClick={() => toSwitch.mutate(data.id)}
          >
            {t("replay.switch")}
          </Button>
          {!canSwitch && (
            <Text fz="xs" c="dimmed">
              {t("replay.switch_admins_only")}
            </Text>
          )}
        </Group>
      )}
      {toSwitch.error && <Alert color="red">{failure(toSwitch.error)}</Alert>}
    </Stack>
  );
}

/**
 * Replay from the audit screen: a projection rebuilt side by side from the whole log, compared with the live one
 * table by table, and put in service when they agree (administrators only; auditors compare and read).
 */
export function ReplayPanel({ canSwitch }: { canSwitch: boolean }) {
  const { t } = useTranslation("audit");
  const formats = useFormats();
  const queryClient = useQueryClient();
  const overview = useQuery(replaysQueryOptions());
  const [current, setCurrent] = useState<string | null>(null);
  const projections = overview.data?.projections ?? [];
  const say = useFormErrorWords();
  const form = useForm<ReplayFormValues>({
    initialValues: { projection: "" },
    // Memoised: the form's setters change with `validate`, and the effect below must not run on every render.
    validate: useMemo(() => translatedValidation(resolveReplay, say), [say]),
  });
  // The first projection in service is chosen once the overview names them.
  const { setFieldValue } = form;
  const first = projections[0];
  useEffect(() => {
    if (first) setFieldValue("projection", (chosen) => chosen || first);
  }, [first, setFieldValue]);
  const show = (run: ReplayRun) => {
    queryClient.setQueryData(replayRunQueryOptions(run.id).queryKey, run);
    setCurrent(run.id);
  };
  const start = useMutation({
    mutationFn: startReplay,
    onSuccess: (run) => {
      void queryClient.invalidateQueries({ queryKey: replaysQueryOptions().queryKey });
      show(run);
    },
  });
  return (
    <Stack gap="sm">
      <Text fz="sm" c="dimmed">
        {t("replay.lead")}
      </Text>
      <form
        noValidate
        onSubmit={form.onSubmit(({ projection }) => start.mutate(projection), focusFirstError)}
      >
        <Group align="flex-end" gap="xs">
          <NativeSelect
            size="xs"
            label={t("replay.projection")}
            {...form.getInputProps("projection")}
            data={projections}
          />
          <Button size="xs" type="submit" loading={start.isPending}>
            {t("replay.start")}
          </Button>
        </Group>
      </form>
      {overview.error && <Alert color="red">{failure(overview.error)}</Alert>}
      {start.error && <Alert color="red">{failure(start.error)}</Alert>}
      {current && <RunView key={current} id={current} canSwitch={canSwitch} onRun={show} />}
      {overview.data && overview.data.runs.length > 0 && (
        <Table fz="xs" aria-label={t("replay.recent")}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("replay.started")}</Table.Th>
              <Table.Th>{t("replay.projection")}</Table.Th>
              <Table.Th>{t("replay.kind")}</Table.Th>
              <Table.Th>{t("replay.state")}</Table.Th>
              <Table.Th>{t("replay.open")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {overview.data.runs.map((run) => (
              <Table.Tr key={run.id}>
                <Table.Td>{formats.instant(run.created_at, { seconds: true })}</Table.Td>
                <Table.Td>{run.projection}</Table.Td>
                <Table.Td>{t(`replay.kind_names.${run.kind}`)}</Table.Td>
                <Table.Td>
                  {t(`replay.status.${run.status}`)}
                  {run.report && ` · ${run.report.agree ? t("replay.equal") : t("replay.different")}`}
                </Table.Td>
                <Table.Td>
                  <Button size="compact-xs" variant="subtle" onClick={() => setCurrent(run.id)}>
                    {t("replay.open")}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
