import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  List,
  Paper,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import type { AskResponse, Change, ExecuteResponse, PlanStep, Preview } from "@skyward/contracts/assistant";
import { AskForm, type AskFormValues } from "@skyward/contracts/assistant-forms";
import type { Money } from "@skyward/contracts/money";
import { IconArrowRight, IconSparkles } from "@tabler/icons-react";
import { useRouter } from "@tanstack/react-router";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { errorMessages } from "../../../lib/api-client.ts";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { translatedValidation, useFormErrorWords } from "../../../lib/form-validation.ts";
import { useAsk, useExecute } from "../api/assistant.ts";

interface Turn {
  id: number;
  text: string;
  response: AskResponse | null;
  error: string | null;
}

const isMoney = (v: unknown): v is Money =>
  !!v &&
  typeof v === "object" &&
  typeof (v as Money).amount === "number" &&
  typeof (v as Money).currency === "string";

/** A preview in the site language (its code and parameters), the server's English text when the code is unknown. */
function usePreviewText() {
  const { t } = useTranslation("assistant");
  const formats = useFormats();
  return (preview: Preview) => {
    const params: Record<string, unknown> = { ...preview.params };
    if (typeof params.amount === "number" && typeof params.currency === "string")
      params.money = formats.money({ amount: params.amount, currency: params.currency });
    if (typeof params.at === "string") params.at = formats.instant(params.at);
    return t(`preview.${preview.code}` as never, { ...params, defaultValue: preview.text }) as string;
  };
}

/** A value before or after a step, for people: money, on/off, markups and fees. */
function useValueText() {
  const { t } = useTranslation("assistant");
  const formats = useFormats();
  const charge = (c: unknown): string => {
    if (!c || typeof c !== "object") return t("value.none");
    const x = c as { kind: string; bps?: number; amount?: Money; per?: string };
    if (x.kind === "percent") return `${formats.number((x.bps ?? 0) / 100)} %`;
    if (x.amount)
      return t(x.per === "booking" ? "value.per_booking" : "value.per_passenger", {
        money: formats.money(x.amount),
      });
    return t("value.none");
  };
  const value = (v: unknown): string => {
    if (v === null || v === undefined) return t("value.none");
    if (typeof v === "boolean") return v ? t("value.on") : t("value.off");
    if (isMoney(v)) return formats.money(v);
    if (Array.isArray(v))
      return v.length === 0
        ? t("value.none")
        : v
            .map((r: { carrier?: string | null; charge?: unknown }) =>
              t("value.rule", { charge: charge(r.charge), carrier: r.carrier ?? t("value.all_carriers") }),
            )
            .join("; ");
    if (typeof v === "object" && "kind" in v) return charge(v);
    return String(v);
  };
  return value;
}

function ChangeLine({ change }: { change: Change }) {
  const { t } = useTranslation("assistant");
  const value = useValueText();
  return (
    <Group gap={6} wrap="wrap" fz="sm">
      <Text fz="sm" fw={500}>
        {t(`field.${change.field}` as never, { defaultValue: change.field }) as string}:
      </Text>
      <Text fz="sm">{value(change.before)}</Text>
      <IconArrowRight size={14} aria-label={t("becomes")} />
      <Text fz="sm" fw={600}>
        {value(change.after)}
      </Text>
    </Group>
  );
}

function Result({ result }: { result: ExecuteResponse }) {
  const { t } = useTranslation("assistant");
  const router = useRouter();
  return (
    <Stack gap={6} aria-live="polite">
      <Text fw={600}>{result.status === "executed" ? t("result.done") : t("result.failed")}</Text>
      <List spacing={4} fz="sm">
        {result.results.map((r) => (
          <List.Item key={r.index}>
            <Group gap={8} wrap="wrap">
              <Badge
                color={r.status === "done" ? "teal" : r.status === "failed" ? "red" : "gray"}
                variant="light"
              >
                {t(`status.${r.status}`)}
              </Badge>
              <Text fz="sm">{t("step", { n: r.index + 1 })}</Text>
              {r.error ? <Text fz="sm">{r.error.detail}</Text> : null}
              {r.links.map((link) => (
                <Anchor
                  key={link.href}
                  href={link.href}
                  fz="sm"
                  onClick={(event) => {
                    event.preventDefault();
                    router.history.push(link.href);
                  }}
                >
                  {t(`link.${link.kind}` as never, { defaultValue: link.kind }) as string}
                </Anchor>
              ))}
            </Group>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

function PlanView({ response }: { response: Extract<AskResponse, { kind: "plan" }> }) {
  const { t } = useTranslation("assistant");
  const formats = useFormats();
  const previewText = usePreviewText();
  const execute = useExecute();
  const [confirmed, setConfirmed] = useState<number[]>([]);
  const [moneyConfirmed, setMoneyConfirmed] = useState(false);
  const [typed, setTyped] = useState<Record<number, string>>({});
  const plan = response.plan;
  const chosen = plan.steps.filter((s) => confirmed.includes(s.index));
  const needsMoney = chosen.some((s) => s.moves_money);
  // Steps above the limit run only once their amount is typed again (issue 25): as written, in major units.
  const retype = (plan.retype_amounts ?? []).filter((r) => confirmed.includes(r.step));
  const typedMinor = (step: number) => {
    const n = Number((typed[step] ?? "").replace(/[\s\u00a0]/g, "").replace(",", "."));
    return Number.isFinite(n) && (typed[step] ?? "").trim() !== "" ? Math.round(n * 100) : null;
  };
  const ready =
    chosen.length > 0 &&
    (!needsMoney || moneyConfirmed) &&
    retype.every((r) => typedMinor(r.step) !== null) &&
    !execute.data;
  const toggle = (step: PlanStep, on: boolean) =>
    setConfirmed((now) => (on ? [...now, step.index] : now.filter((i) => i !== step.index)));
  return (
    <Stack gap="sm">
      <Text fw={600}>{t("plan.title", { n: plan.steps.length })}</Text>
      {plan.steps.map((step) => (
        <Card key={step.index} withBorder padding="sm" radius="md">
          <Stack gap={6}>
            <Group gap={8} wrap="nowrap" align="flex-start">
              <Badge variant="light">{t("step", { n: step.index + 1 })}</Badge>
              <Text fz="sm">{previewText(step.preview)}</Text>
              {step.moves_money ? (
                <Badge color="orange" variant="light">
                  {t("plan.money")}
                </Badge>
              ) : null}
            </Group>
            {step.changes.map((change) => (
              <ChangeLine key={change.field} change={change} />
            ))}
            <Checkbox
              label={t("plan.confirm_step", { n: step.index + 1 })}
              checked={confirmed.includes(step.index)}
              disabled={!!execute.data}
              onChange={(event) => toggle(step, event.currentTarget.checked)}
            />
          </Stack>
        </Card>
      ))}
      {retype.map((r) => (
        <TextInput
          key={r.step}
          label={t("retype.label", { n: r.step + 1, currency: r.currency })}
          description={t("retype.hint")}
          inputMode="decimal"
          autoComplete="off"
          value={typed[r.step] ?? ""}
          disabled={!!execute.data}
          onChange={(event) => {
            const value = event.currentTarget.value;
            setTyped((now) => ({ ...now, [r.step]: value }));
          }}
        />
      ))}
      {needsMoney ? (
        <Checkbox
          color="orange"
          label={t("plan.confirm_money")}
          checked={moneyConfirmed}
          disabled={!!execute.data}
          onChange={(event) => setMoneyConfirmed(event.currentTarget.checked)}
        />
      ) : null}
      <Group gap="sm">
        <Button
          disabled={!ready}
          loading={execute.isPending}
          onClick={() =>
            execute.mutate({
              planId: plan.id,
              steps: confirmed,
              confirmMoney: moneyConfirmed,
              confirmAmounts: retype.map((r) => ({ step: r.step, amount: typedMinor(r.step) ?? 0 })),
            })
          }
        >
          {t("plan.execute", { n: chosen.length })}
        </Button>
        <Text fz="xs" c="dimmed">
          {t("plan.expires", { at: formats.instant(plan.expires_at) })}
        </Text>
      </Group>
      {execute.error ? (
        <Alert color="red" title={t("result.failed")}>
          {errorMessages(execute.error).join(" ")}
        </Alert>
      ) : null}
      {execute.data ? <Result result={execute.data} /> : null}
    </Stack>
  );
}

function AnswerView({ response }: { response: Extract<AskResponse, { kind: "answer" }> }) {
  const { t } = useTranslation("assistant");
  const previewText = usePreviewText();
  const value = useValueText();
  const formats = useFormats();
  const router = useRouter();
  const rows = Array.isArray(response.answer.data) ? (response.answer.data as Record<string, unknown>[]) : [];
  const go = (href: string) => (event: { preventDefault: () => void }) => {
    event.preventDefault();
    router.history.push(href);
  };
  const single = !Array.isArray(response.answer.data)
    ? (response.answer.data as { link?: string } | null)
    : null;
  return (
    <Stack gap="xs">
      <Text>{previewText(response.answer.preview)}</Text>
      {single?.link ? (
        <Anchor href={single.link} onClick={go(single.link)} fz="sm">
          {t("link.balance")}
        </Anchor>
      ) : null}
      {rows.length > 0 && response.answer.question === "channel_changes" ? (
        <Table fz="sm" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("table.when")}</Table.Th>
              <Table.Th>{t("table.who")}</Table.Th>
              <Table.Th>{t("table.what")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={`${String(r.at)}${String(r.field)}`}>
                <Table.Td>{formats.instant(String(r.at))}</Table.Td>
                <Table.Td>{String(r.actor ?? r.role)}</Table.Td>
                <Table.Td>
                  <Anchor href={String(r.link)} onClick={go(String(r.link))}>
                    {String(r.channel ?? "")}
                  </Anchor>{" "}
                  {t(`field.${String(r.field)}` as never, { defaultValue: String(r.field) }) as string}:{" "}
                  {value(r.before)} → {value(r.after)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {rows.length > 0 && response.answer.question === "bookings_expiring_today" ? (
        <List fz="sm">
          {rows.map((r) => (
            <List.Item key={String(r.locator)}>
              <Anchor href={String(r.link)} onClick={go(String(r.link))}>
                {String(r.locator)}
              </Anchor>{" "}
              {String(r.route)} · {String(r.company ?? "")} · {formats.instant(String(r.time_limit))}
            </List.Item>
          ))}
        </List>
      ) : null}
    </Stack>
  );
}

function TurnView({ turn, onAsk }: { turn: Turn; onAsk: (text: string) => void }) {
  const { t } = useTranslation("assistant");
  const previewText = usePreviewText();
  const r = turn.response;
  return (
    <Stack gap="xs">
      <Paper withBorder radius="md" p="sm" bg="var(--mantine-color-gray-light)" ml="auto" maw="80%">
        <Text fz="sm" fw={600}>
          {t("you")}
        </Text>
        <Text fz="sm">{turn.text}</Text>
      </Paper>
      <Paper withBorder radius="md" p="sm" maw="95%">
        <Group gap={6} mb={6}>
          <IconSparkles size={16} aria-hidden />
          <Text fz="sm" fw={600}>
            {t("assistant")}
          </Text>
        </Group>
        {turn.error ? <Text role="alert">{turn.error}</Text> : null}
        {r?.kind === "plan"
          ? r.answers?.map((answer, i) => (
              <AnswerView key={`${answer.question}${String(i)}`} response={{ kind: "answer", answer }} />
            ))
          : null}
        {r?.kind === "plan" ? <PlanView response={r} /> : null}
        {r?.kind === "answer" ? <AnswerView response={r} /> : null}
        {r?.kind === "not_understood" ? <Text>{previewText(r.preview)}</Text> : null}
        {r?.kind === "question" ? <Text>{previewText(r.question.preview)}</Text> : null}
        {r?.kind === "refuse" ? (
          <Alert color="red" title={t("refuse.title")}>
            {previewText(r.refusal.preview)}
          </Alert>
        ) : null}
        {r?.kind === "clarify" ? (
          <Stack gap="xs">
            <Text fw={600} fz="sm">
              {t("clarify.title")}
            </Text>
            <Text>{previewText(r.clarify.preview)}</Text>
            <Group gap="xs">
              {r.clarify.candidates.map((c) => {
                const ref = String(r.clarify.preview.params.ref ?? "");
                return (
                  <Button
                    key={c.id}
                    variant="light"
                    size="compact-sm"
                    onClick={() =>
                      onAsk(
                        ref && turn.text.includes(ref)
                          ? turn.text.replace(ref, c.name)
                          : `${turn.text} ${c.name}`,
                      )
                    }
                  >
                    {c.detail ? `${c.name} (${c.detail})` : c.name}
                  </Button>
                );
              })}
            </Group>
            {r.clarify.unused.length > 0 ? (
              <Text fz="sm" c="dimmed">
                {t("clarify.unused", { words: r.clarify.unused.join(" ") })}
              </Text>
            ) : null}
          </Stack>
        ) : null}
      </Paper>
    </Stack>
  );
}

const ASK_MAX = 1000;
const resolveAsk = zod4Resolver(AskForm);

/** The AI admin panel: a conversation whose plans run only step by step as the user confirms them (issue 13). */
export function AssistantPage() {
  const { t } = useTranslation("assistant");
  const ask = useAsk();
  const [turns, setTurns] = useState<Turn[]>([]);
  const inputId = useId();
  const say = useFormErrorWords({ max: ASK_MAX });
  const form = useForm<AskFormValues>({
    initialValues: { text: "" },
    validate: translatedValidation(resolveAsk, say),
  });
  /** A request as typed in the box or picked from a suggestion. */
  const send = (text: string) => {
    const id = Date.now();
    setTurns((now) => [...now, { id, text, response: null, error: null }]);
    form.reset();
    ask.mutate(text, {
      onSuccess: (response) => setTurns((now) => now.map((x) => (x.id === id ? { ...x, response } : x))),
      onError: (error) =>
        setTurns((now) =>
          now.map((x) => (x.id === id ? { ...x, error: errorMessages(error).join(" ") } : x)),
        ),
    });
  };
  const submit = form.onSubmit((values) => send(AskForm.parse(values).text), focusFirstError);
  return (
    <Stack gap="md" p="md" maw={960} mx="auto">
      <Title order={1} fz="h2">
        {t("title")}
      </Title>
      <Text c="dimmed" fz="sm">
        {t("intro")}
      </Text>
      <Stack gap="md" component="section" aria-label={t("conversation")}>
        {turns.length === 0 ? (
          <Text fz="sm" c="dimmed">
            {t("examples")}
          </Text>
        ) : null}
        {turns.map((turn) => (
          <TurnView key={turn.id} turn={turn} onAsk={send} />
        ))}
      </Stack>
      <form onSubmit={submit} noValidate>
        <Stack gap="xs">
          <Textarea
            id={inputId}
            label={t("input.label")}
            placeholder={t("input.placeholder")}
            rows={3}
            maxLength={ASK_MAX}
            {...form.getInputProps("text")}
            onKeyDown={(event) => {
              if (event.key === "Enter" && !event.shiftKey) {
                event.preventDefault();
                submit();
              }
            }}
          />
          <Group>
            <Button type="submit" loading={ask.isPending} disabled={form.values.text.trim().length === 0}>
              {t("input.send")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
