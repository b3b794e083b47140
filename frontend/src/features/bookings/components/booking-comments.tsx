import { Button, Group, Stack, Text, Textarea } from "@mantine/core";
import type { BookingComment } from "@skyward/contracts/bookings";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { errorMessages } from "../../../lib/api-client.ts";
import { useSession } from "../../../lib/session.ts";
import { useCommentBooking } from "../api/booking-commands.ts";

/** The agents' notes on a booking, newest last, and a box to add one. */
export function BookingComments({ locator, comments }: { locator: string; comments: BookingComment[] }) {
  const { t } = useTranslation("bookings");
  const formats = useFormats();
  const session = useSession();
  const [text, setText] = useState("");
  const comment = useCommentBooking(locator);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    comment.mutate(text.trim(), { onSuccess: () => setText("") });
  };

  return (
    <Stack gap="sm">
      {comments.length === 0 ? (
        <Text fz="sm" c="dimmed">
          {t("comments.empty")}
        </Text>
      ) : (
        <Stack gap={6} component="ol" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {comments.map((item) => (
            <Stack
              key={`${item.at}-${item.text}`}
              component="li"
              gap={2}
              p="xs"
              bg="var(--skyward-surface)"
              style={{ borderRadius: 6, borderLeft: "3px solid var(--mantine-color-blue-3)" }}
            >
              <Text fz="sm" style={{ whiteSpace: "pre-wrap" }}>
                {item.text}
              </Text>
              <Text fz={11} c="dimmed">
                {item.by === session?.account.skyward_id ? t("comments.by_you") : t("comments.by_colleague")}{" "}
                · {formats.instant(item.at)}
              </Text>
            </Stack>
          ))}
        </Stack>
      )}
      <form onSubmit={submit}>
        <Stack gap={6}>
          <Textarea
            aria-label={t("comments.label")}
            placeholder={t("comments.placeholder")}
            rows={2}
            resize="vertical"
            maxLength={2000}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            error={comment.isError ? errorMessages(comment.error).join(" ") : undefined}
          />
          <Group justify="flex-end">
            <Button
              type="submit"
              size="xs"
              variant="light"
              loading={comment.isPending}
              disabled={!text.trim()}
            >
              {t("comments.add")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
