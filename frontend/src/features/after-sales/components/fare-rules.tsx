import { Group, Stack, Text } from "@mantine/core";
import type { FarePenalty, PenaltyRule } from "@skyward/contracts/offers";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";

/** The fare's refund and change rules (ATPCO categories 16/31/33 in spirit), in the interface language. */
export function FareRules({ penalty, only }: { penalty: FarePenalty; only: "refund" | "change" }) {
  const { t } = useTranslation("after-sales");
  const formats = useFormats();
  const text = (rule: PenaltyRule) => {
    if (!rule.allowed) return t("rules.none");
    if (rule.fee.amount === 0) return t("rules.free");
    return t("rules.fee", { amount: formats.money(rule.fee) });
  };
  const lines =
    only === "refund"
      ? [
          [t("rules.refund_before"), text(penalty.refund_before_departure)],
          [t("rules.refund_after"), text(penalty.refund_after_departure)],
        ]
      : [
          [t("rules.change_before"), text(penalty.change_before_departure)],
          [t("rules.change_after"), text(penalty.change_after_departure)],
        ];
  return (
    <Stack gap={2} component="section" aria-label={t("rules.title")}>
      <Text fz={11} c="dimmed" tt="uppercase" fw={600}>
        {t("rules.title")}
      </Text>
      {lines.map(([label, value]) => (
        <Group key={label} gap={6} wrap="nowrap">
          <Text fz="sm" fw={600}>
            {label}:
          </Text>
          <Text fz="sm">{value}</Text>
        </Group>
      ))}
    </Stack>
  );
}
