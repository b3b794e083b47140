import {
  Locator,
  ScheduleChangeAnswerRequest,
  ScheduleChangeAnswerResponse,
  ScheduleChangeCheckResponse,
} from "../bookings.ts";
import { type DocumentedRoute, errors, notFound, unauthorized } from "./shared.ts";

/** The documented routes tagged "Schedule changes" (issue 24.3; the assembled document keeps the order in ../openapi.ts). */
export const scheduleChangeRoutes: readonly DocumentedRoute[] = [
  {
    method: "post",
    path: "/orders/{locator}/schedule_change/check",
    operationId: "checkScheduleChange",
    summary:
      "Ask the airline now whether it changed an issued booking's flights (a job asks every few minutes); a new change is recorded once",
    tag: "Schedule changes",
    secured: true,
    params: { locator: Locator },
    responses: {
      200: {
        description: "recorded (a new change), known (already recorded) or none",
        schema: ScheduleChangeCheckResponse,
      },
      401: unauthorized,
      404: notFound,
    },
  },
  {
    method: "post",
    path: "/orders/{locator}/schedule_change/answer",
    operationId: "answerScheduleChange",
    summary:
      "Answer the airline's schedule change by its deadline: accept the new flights, or (major change, cancelled flight) exchange to an alternative flight without fare difference or fee, or refund the tickets in full without penalty",
    tag: "Schedule changes",
    secured: true,
    params: { locator: Locator },
    body: ScheduleChangeAnswerRequest,
    responses: {
      200: { description: "Answered", schema: ScheduleChangeAnswerResponse },
      401: unauthorized,
      404: notFound,
      409: errors("Answered already, another change, or an operation in flight"),
      422: errors("No change to answer, a choice the change does not allow, or its deadline passed"),
    },
  },
];
