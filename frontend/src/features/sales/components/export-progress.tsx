import { Progress, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { LOCALE_TAGS, useSiteLanguage } from "../../../lib/i18n.ts";
import type { DownloadProgress } from "../api/sales-files.ts";

/** Bytes as the reader's language writes sizes (kB under a megabyte, else MB with one decimal). */
export function formatBytes(bytes: number, locale: string): string {
  const mb = bytes >= 1_000_000;
  return new Intl.NumberFormat(locale, {
    style: "unit",
    unit: mb ? "megabyte" : "kilobyte",
    unitDisplay: "short",
    maximumFractionDigits: mb ? 1 : 0,
  }).format(mb ? bytes / 1_000_000 : Math.max(1, Math.round(bytes / 1000)));
}

/**
 * The report download's progress bar: determinate from the size the server estimated (never 100 % before the last
 * byte), indeterminate while the file has not started or when there is no estimate; then what was downloaded.
 */
export function ExportProgress({ progress }: { progress: DownloadProgress | null }) {
  const { t } = useTranslation("sales");
  const locale = LOCALE_TAGS[useSiteLanguage()];
  const lines = new Intl.NumberFormat(locale).format(progress?.lines ?? 0);
  const received = formatBytes(progress?.received ?? 0, locale);
  if (progress?.done)
    return (
      <Text role="status" fz="sm" c="dimmed">
        {t("export.done", { lines, size: received })}
      </Text>
    );
  const started = progress !== null && progress.received > 0;
  const text = !started
    ? t("export.preparing")
    : progress.estimatedBytes !== null
      ? t("export.progress", { received, estimated: formatBytes(progress.estimatedBytes, locale), lines })
      : t("export.received", { received });
  const value = started ? progress.percent : null;
  return (
    <Stack gap={4} w={320}>
      <div
        role="progressbar"
        aria-label={t("export.progress_label")}
        aria-valuemin={0}
        aria-valuemax={100}
        {...(value !== null ? { "aria-valuenow": value } : {})}
        aria-valuetext={value !== null ? `${value}% · ${text}` : text}
      >
        <Progress.Root size="md" aria-hidden>
          <Progress.Section
            value={value ?? 100}
            striped={value === null}
            animated={value === null}
            withAria={false}
          />
        </Progress.Root>
      </div>
      <Text fz="xs" c="dimmed" aria-hidden>
        {text}
      </Text>
    </Stack>
  );
}
