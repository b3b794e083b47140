import { Alert, Button, Stack, Text } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { errorMessages } from "../lib/api-client.ts";

/** Spread into a query's options when its screen shows the failure itself (no notification beside it). */
export const shownInline = { meta: { notifyErrors: false } } as const;

/** What a data screen's query offers for "load failed — Retry" (TanStack Query's result has all of it). */
export interface Reloadable {
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * A failure said where it happens: the server's words for it and a Retry that asks again, in place of the data
 * (or above data shown before). `title` names what failed; the shared "could not be loaded" otherwise.
 */
export function LoadFailedAlert({
  messages,
  onRetry,
  retrying = false,
  title,
}: {
  messages: string[];
  onRetry: () => void;
  retrying?: boolean;
  title?: string;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={16} aria-hidden />}
      title={title ?? t("load_failed.title")}
      role="alert"
      data-load-failed
    >
      <Stack gap="xs" align="flex-start">
        {messages.map((message) => (
          <Text key={message} fz="sm">
            {message}
          </Text>
        ))}
        <Button size="xs" variant="default" onClick={onRetry} loading={retrying}>
          {t("load_failed.retry")}
        </Button>
      </Stack>
    </Alert>
  );
}

/** The alert for a failed query, or nothing while it has not failed. */
export function LoadFailed({ query, title }: { query: Reloadable; title?: string }) {
  if (!query.isError) return null;
  return (
    <LoadFailedAlert
      messages={errorMessages(query.error)}
      onRetry={() => void query.refetch()}
      retrying={query.isFetching}
      title={title}
    />
  );
}
