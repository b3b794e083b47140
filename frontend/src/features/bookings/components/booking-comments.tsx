import { Button, Group, Stack, Text, Textarea } from "@mantine/core";
import { useForm } from "@mantine/form";
import { CommentForm, type CommentFormValues } from "@skyward/contracts/booking-forms";
import type { BookingComment } from "@skyward/contracts/bookings";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { errorMessages } from "../../../lib/api-client.ts";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { translatedValidation, useFormErrorWords } from "../../../lib/form-validation.ts";
import { useSession } from "../../../lib/session.ts";
import { useCommentBooking } from "../api/booking-commands.ts";

const COMMENT_MAX = 2000;
const resolveComment = zod4Resolver(CommentForm);

/** The agents' notes on a booking, newest last, and a box to add one. */
export function BookingComments({ locator, comments }: { locator: string; comments: BookingComment[] }) {
  const { t } = useTranslation("bookings");
  const formats = useFormats();
  const session = useSession();
  const say = useFormErrorWords({ max: COMMENT_MAX });
  const comment = useCommentBooking(locator);
  const form = useForm<CommentFormValues>({
    initialValues: { comment: "" },
    validate: translatedValidation(resolveComment, say),
  });

  const submit = form.onSubmit((values) => {
    comment.mutate(CommentForm.parse(values).comment, { onSuccess: () => form.reset() });
  }, focusFirstError);

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
      <form onSubmit={submit} noValidate>
        <Stack gap={6}>
          <Textarea
            aria-label={t("comments.label")}
            placeholder={t("comments.placeholder")}
            rows={2}
            resize="vertical"
            maxLength={COMMENT_MAX}
            {...form.getInputProps("comment")}
            error={
              form.errors.comment ?? (comment.isError ? errorMessages(comment.error).join(" ") : undefined)
            }
            disabled={comment.isPending}
          />
          <Group justify="flex-end">
            <Button type="submit" size="xs" variant="light" loading={comment.isPending}>
              {t("comments.add")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
