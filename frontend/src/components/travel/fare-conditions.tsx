import { Group, Stack, Text } from "@mantine/core";
import type { FarePenalty, FareSegment, PenaltyRule } from "@skyward/contracts/offers";
import { IconBackpack, IconLuggage, IconReceiptRefund, IconRefresh } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFormats } from "./use-formats.ts";

/** The least generous allowance over the segments: what the passenger can count on for the whole journey. */
export function baggageOf(fareSegments: FareSegment[]) {
  const [first, ...rest] = fareSegments;
  if (!first) return null;
  return rest.reduce(
    (least, s) => (s.baggage.checked.pieces < least.checked.pieces ? s.baggage : least),
    first.baggage,
  );
}

function Line({ icon, ok, children }: { icon: ReactNode; ok: boolean; children: string }) {
  return (
    <Group gap={6} wrap="nowrap" c={ok ? "var(--mantine-color-text)" : "dimmed"} miw={0}>
      <span style={{ flex: "none", display: "inline-flex" }}>{icon}</span>
      {/* Wrapped, never cut: the Polish and Ukrainian allowances are longer than the column (issue 27). */}
      <Text fz={12} lh={1.3} c="inherit" miw={0}>
        {children}
      </Text>
    </Group>
  );
}

/** Baggage, changes and refund of a fare, as the agent explains them to the traveller. */
export function FareConditions({
  fareSegments,
  penalty,
}: {
  fareSegments: FareSegment[];
  penalty: FarePenalty;
}) {
  const { t } = useTranslation("search");
  const formats = useFormats();
  const baggage = baggageOf(fareSegments);
  const rule = (kind: "change" | "refund", penaltyRule: PenaltyRule) => {
    if (!penaltyRule.allowed) return t(`fare.${kind}_none`);
    if (penaltyRule.fee.amount === 0) return t(`fare.${kind}_free`);
    return t(`fare.${kind}_fee`, { amount: formats.money(penaltyRule.fee, { whole: true }) });
  };
  return (
    <Stack gap={2} miw={0}>
      {baggage ? (
        <Line icon={<IconLuggage size={14} />} ok={baggage.checked.pieces > 0}>
          {baggage.checked.pieces > 0
            ? t("fare.checked_bag", { pieces: baggage.checked.pieces, weight: baggage.checked.weight_kg })
            : t("fare.no_checked_bag")}
        </Line>
      ) : null}
      {baggage ? (
        <Line icon={<IconBackpack size={14} />} ok>
          {baggage.carry_on.pieces > 0
            ? t("fare.carry_on", { weight: baggage.carry_on.weight_kg })
            : t("fare.personal_item")}
        </Line>
      ) : null}
      <Line icon={<IconRefresh size={14} />} ok={penalty.change_before_departure.allowed}>
        {rule("change", penalty.change_before_departure)}
      </Line>
      <Line icon={<IconReceiptRefund size={14} />} ok={penalty.refund_before_departure.allowed}>
        {rule("refund", penalty.refund_before_departure)}
      </Line>
    </Stack>
  );
}
