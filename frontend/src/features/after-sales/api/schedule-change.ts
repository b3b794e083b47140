import type { Money } from "@skyward/contracts/money";
import type { ScheduleChangeChoice } from "@skyward/contracts/supplier";
import { api } from "../../../lib/api-client.ts";

export interface ScheduleChangeAnswered {
  locator: string;
  change_id: string;
  choice: ScheduleChangeChoice;
  status: string;
  credited: Money | null;
  position: string | null;
}

/** `POST /orders/{locator}/schedule_change/answer`: accept the airline's change, exchange to an alternative, or refund. */
export async function answerScheduleChange(
  locator: string,
  answer: { change_id: string; choice: ScheduleChangeChoice; option_id?: string },
): Promise<ScheduleChangeAnswered> {
  const { data } = await api.post<ScheduleChangeAnswered>(
    `/orders/${encodeURIComponent(locator)}/schedule_change/answer`,
    answer,
  );
  return data;
}
