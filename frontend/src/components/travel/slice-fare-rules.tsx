import { Stack, Text } from "@mantine/core";
import type { PenaltyRule, SliceFareRule } from "@skyward/contracts/offers";
import { useTranslation } from "react-i18next";
import { useFareText } from "../../lib/fare-text.ts";
import { useFormats } from "./use-formats.ts";

/** Whether a fare's slices are sold under rules of their own (a multi-city fare of mixed families). */
export const rulesDifferPerSlice = (slices: readonly SliceFareRule[]) =>
  new Set(slices.map((s) => s.family)).size > 1;

/**
 * Each slice of a multi-city fare with its family and its change and refund rules, in words: shown when the slices
 * are sold in different families (an exchange of a slice pays that slice's fee; a refund gives back each slice
 * under its own rule). Nothing for a fare of one family throughout.
 */
export function SliceFareRules({ slices }: { slices: readonly SliceFareRule[] }) {
  const { t } = useTranslation("search");
  const formats = useFormats();
  const fareText = useFareText();
  if (!rulesDifferPerSlice(slices)) return null;
  const rule = (kind: "change" | "refund", penalty: PenaltyRule) => {
    if (!penalty.allowed) return t(`fare.${kind}_none`);
    if (penalty.fee.amount === 0) return t(`fare.${kind}_free`);
    return t(`fare.${kind}_fee`, { amount: formats.money(penalty.fee, { whole: true }) });
  };
  return (
    <Stack gap={4} component="section" aria-label={t("details.slices_title")} data-testid="slice-fare-rules">
      <Text fz="sm" fw={600}>
        {t("details.slices_title")}
      </Text>
      {slices.map((slice) => (
        <Text key={slice.slice} fz="sm" data-slice={slice.slice} data-family={slice.family}>
          {`${t("details.slice_rule", {
            number: slice.slice + 1,
            from: slice.origin,
            to: slice.destination,
            brand: fareText.brand({ brand_name: slice.brand_name, family: slice.family }),
          })} · ${rule("change", slice.penalty.change_before_departure)} · ${rule(
            "refund",
            slice.penalty.refund_before_departure,
          )}`}
        </Text>
      ))}
    </Stack>
  );
}
