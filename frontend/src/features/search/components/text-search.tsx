import { Alert, Button, Group, Paper, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import type { JourneySearchRequest } from "@skyward/contracts/offers";
import type { SearchFilters } from "@skyward/contracts/search";
import type { ParsedSearch, TextSearchResponse } from "@skyward/contracts/text-search";
import type { TextSearchLineValues } from "@skyward/contracts/text-search-form";
import { TEXT_SEARCH_MAX_LENGTH } from "@skyward/contracts/text-search-limits";
import { IconSparkles } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../../lib/api-client.ts";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { translatedValidation, useFormErrorWords } from "../../../lib/form-validation.ts";
import { useSiteLanguage } from "../../../lib/i18n.ts";
import { loadSearchChecks, searchChecks, submitWithChecks } from "../load-checks.ts";
import type { Chip } from "./text-search-chips.tsx";

// The chips a line is read into, their editors and the search they make load with the first reading.
const loadChips = () => import("./text-search-chips.tsx");
const TextSearchChips = lazy(() => loadChips().then((m) => ({ default: m.TextSearchChips })));

/** The agent's own today (its time zone), so "tomorrow" means the agent's tomorrow. */
function localToday(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** `POST /text_search`: one line to a structured search and the chips it is made of. */
async function readLine(text: string, language: string): Promise<TextSearchResponse> {
  const { data } = await api.post<TextSearchResponse>("/text_search", {
    text,
    language,
    today: localToday(),
  });
  return data;
}

let chipIds = 0;

/**
 * The search in the agent's own words: one line, read by the server into parts shown as chips (each editable and
 * removable) before anything is searched; "Search" runs it through the search form's address, then applies the
 * direct-only and carrier filters the line asked for once the result is there.
 */
export function TextSearch({
  onSearch,
  resultId,
  onApplyFilters,
}: {
  onSearch: (request: JourneySearchRequest) => void;
  /** The id of the result on screen (null while searching): the moment the pending filters apply. */
  resultId: string | null;
  onApplyFilters: (filters: SearchFilters) => void;
}) {
  const { t } = useTranslation(["text-search", "search"]);
  const language = useSiteLanguage();
  const inputId = useId();
  const say = useFormErrorWords({ max: TEXT_SEARCH_MAX_LENGTH });
  const line = useForm<TextSearchLineValues>({
    initialValues: { text: "" },
    // The line's schema (and zod) load when the search is first used: the first submit waits for them.
    validate: (values) => {
      const checks = searchChecks();
      return checks ? translatedValidation(checks.zod4Resolver(checks.TextSearchLineForm), say)(values) : {};
    },
  });
  const [chips, setChips] = useState<Chip[] | null>(null);
  // A multi-city line's slices as read; editing a chip drops them (the chips then make a one-pair search).
  const [slices, setSlices] = useState<ParsedSearch["slices"] | null>(null);
  const [unrecognised, setUnrecognised] = useState<string[]>([]);
  // Issue 25: misspellings read as a city are said; a line that cannot be searched as it is is asked back.
  const [notes, setNotes] = useState<Pick<TextSearchResponse, "corrections" | "ask_back">>({});
  const [editing, setEditing] = useState<number | null>(null);
  const pendingFilters = useRef<{ filters: SearchFilters; after: string | null } | null>(null);
  const read = useMutation({
    mutationFn: (line: string) => readLine(line, language),
    onSuccess: (answer) => {
      setChips(answer.chips.map((chip) => ({ ...chip, id: ++chipIds })));
      setSlices(answer.search.slices ?? null);
      setUnrecognised(answer.unrecognised);
      setNotes({
        ...(answer.corrections ? { corrections: answer.corrections } : {}),
        ...(answer.ask_back ? { ask_back: answer.ask_back } : {}),
      });
    },
  });

  // The line's filters apply to the first result after the search it started (not to the one on screen before).
  useEffect(() => {
    const pending = pendingFilters.current;
    if (!pending || !resultId || resultId === pending.after) return;
    pendingFilters.current = null;
    if (Object.keys(pending.filters).length > 0) onApplyFilters(pending.filters);
  }, [resultId, onApplyFilters]);

  const submitLine = submitWithChecks(
    line.onSubmit((values) => {
      const checks = searchChecks();
      if (!checks) return;
      // The chips' code comes beside the server's reading of the line.
      void loadChips().catch(() => undefined);
      read.mutate(checks.TextSearchLineForm.parse(values).text);
    }, focusFirstError),
  );

  const runSearch = (request: JourneySearchRequest, filters: SearchFilters) => {
    pendingFilters.current = { filters, after: resultId };
    onSearch(request);
  };

  return (
    <Paper withBorder radius="md" p="sm">
      <Stack gap="xs">
        <form onSubmit={submitLine} onFocus={() => void loadSearchChecks().catch(() => undefined)} noValidate>
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <TextInput
              id={inputId}
              data-shortcut="search"
              style={{ flex: 1 }}
              label={t("text-search:label")}
              description={t("text-search:hint")}
              placeholder={t("text-search:placeholder")}
              maxLength={TEXT_SEARCH_MAX_LENGTH}
              {...line.getInputProps("text")}
              leftSection={<IconSparkles size={16} aria-hidden />}
            />
            <Button type="submit" variant="light" loading={read.isPending}>
              {t("text-search:read")}
            </Button>
          </Group>
        </form>

        {read.isError ? (
          <Alert color="red" variant="light" role="alert">
            {t("text-search:error")}
          </Alert>
        ) : null}

        {chips ? (
          <Suspense fallback={null}>
            <TextSearchChips
              chips={chips}
              setChips={setChips}
              slices={slices}
              setSlices={setSlices}
              notes={notes}
              unrecognised={unrecognised}
              editing={editing}
              setEditing={setEditing}
              onRun={runSearch}
            />
          </Suspense>
        ) : null}
      </Stack>
    </Paper>
  );
}
