import { AskRequest, AskResponse, ExecuteRequest, ExecuteResponse } from "../assistant.ts";
import { type DocumentedRoute, errors, invalid, roleOrScope, unauthorized } from "./shared.ts";

/** The documented routes tagged "Assistant" (the assembled document keeps the order in ../openapi.ts). */
export const assistantRoutes: readonly DocumentedRoute[] = [
  {
    method: "post",
    path: "/admin_panel/ask",
    operationId: "assistantAsk",
    summary:
      "The AI admin assistant: a request in words becomes a plan (steps with previews), an answer, a question back (`clarify`: candidates and the words not used) or a refusal (`refuse`: outside the caller's scope or role, or instructions to the assistant); changes nothing",
    tag: "Assistant",
    secured: true,
    body: AskRequest,
    responses: {
      200: {
        description: "A plan, an answer, a question back (clarify) or a refusal (refuse)",
        schema: AskResponse,
      },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/admin_panel/execute",
    operationId: "assistantExecute",
    summary: "Run a plan the same user asked for, before it expires, at most once, step by step as that user",
    tag: "Assistant",
    secured: true,
    body: ExecuteRequest,
    responses: {
      200: { description: "Each step's result", schema: ExecuteResponse },
      401: unauthorized,
      404: errors("No such plan for this user, or no such step"),
      409: errors("The plan has already been executed"),
      410: errors("The plan has expired"),
      422: errors(
        "Invalid input, no step confirmed, a money step without confirm_money, or a step above the limit whose amount was not typed again (confirm_amounts)",
      ),
    },
  },
];
