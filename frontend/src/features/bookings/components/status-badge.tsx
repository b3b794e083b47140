import { Badge, Tooltip } from "@mantine/core";
import { useTranslation } from "react-i18next";

const COLOURS: Record<string, string> = {
  held: "blue",
  ticketing: "cyan",
  issued: "teal",
  exchanged: "teal",
  voided: "gray",
  cancelled: "gray",
  expired: "gray",
  refunded: "violet",
};

export function StatusBadge({ status, size = "sm" }: { status: string; size?: "xs" | "sm" | "md" | "lg" }) {
  const { t } = useTranslation("bookings");
  return (
    <Badge color={COLOURS[status] ?? "gray"} variant="light" radius="sm" size={size} data-status={status}>
      {t(`statuses.${status}` as "statuses.held", { defaultValue: status })}
    </Badge>
  );
}

/** Demo users' bookings never reach an airline: they carry this mark everywhere. */
export function FakeBadge({ size = "sm" }: { size?: "xs" | "sm" | "md" }) {
  const { t } = useTranslation("bookings");
  return (
    <Tooltip label={t("fake_hint")} withArrow>
      {/* Filled with dark text: an orange outline fails contrast on a selected (light blue) row. */}
      <Badge color="orange.4" variant="filled" autoContrast radius="sm" size={size}>
        {t("fake")}
      </Badge>
    </Tooltip>
  );
}
