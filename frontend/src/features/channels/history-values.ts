import type { ChannelHistoryRow } from "@skyward/contracts/ticketing-commands";
import type { TFunction } from "i18next";

/**
 * One side (before or after) of a channel-history row, in words: a switch reads On/Off, a deletion Yes/No, a form of
 * payment by its name, a card by its brand and last four, a created channel by its title and state; no value is "—".
 */
export function historyValue(row: ChannelHistoryRow, value: unknown, t: TFunction<"channels">): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") {
    if (row.field === "deleted") return t(value ? "history.values.yes" : "history.values.no");
    return t(value ? "history.values.on" : "history.values.off");
  }
  switch (row.field) {
    case "form_of_payment":
      return t(`form_of_payment.${String(value)}`, { defaultValue: String(value) });
    case "ticketing_credit_card_id":
    case "credit_cards": {
      const card = row.cards?.[String(value)];
      return card ? `${card.brand} ·${card.last4}` : t("history.values.card_unknown");
    }
    case "credential":
      return t("history.values.credentials_replaced");
    case "created": {
      const created = value as { title?: unknown; active_by_admin?: unknown };
      return t("history.values.created", {
        title: String(created.title ?? ""),
        state: t(created.active_by_admin === false ? "history.values.off" : "history.values.on"),
      });
    }
  }
  if (typeof value === "object") return t("history.values.changed");
  return String(value);
}
