import { z } from "zod";
import {
  AnchorList,
  AsOfKind,
  AsOfQuery,
  AsOfResponse,
  AuditNames,
  AuditNamesQuery,
  ExportJsonResponse,
  HistoryPage,
  HistoryQuery,
  VerifyQuery,
  VerifyReport,
} from "../audit.ts";
import { ReplayOverview, ReplayRun, ReplayStartRequest } from "../replay.ts";
import { type DocumentedRoute, errors, invalid, notFound, roleOrScope, unauthorized } from "./shared.ts";

/** The documented routes tagged "Audit" (the assembled document keeps the order in ../openapi.ts). */
export const auditRoutes: readonly DocumentedRoute[] = [
  {
    method: "get",
    path: "/audit/events",
    operationId: "listEvents",
    minPosition: "chain",
    summary:
      "Event history by stream, booking, company, agency, actor, trace or time range, with chain hashes",
    tag: "Audit",
    secured: true,
    query: HistoryQuery,
    responses: {
      200: { description: "A page of events", schema: z.object({ data: HistoryPage }) },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/audit/names",
    operationId: "findAuditNames",
    summary: "People and companies of the caller's history, found by name, to filter the history by",
    tag: "Audit",
    secured: true,
    query: AuditNamesQuery,
    responses: {
      200: { description: "Up to 20 people and 20 companies", schema: z.object({ data: AuditNames }) },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/audit/verify",
    operationId: "verifyLog",
    summary: "Verify the tamper-evident log (or a range of it); names the first event that does not match",
    tag: "Audit",
    secured: true,
    query: VerifyQuery,
    responses: {
      200: { description: "The verification report", schema: z.object({ data: VerifyReport }) },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/audit/anchors",
    operationId: "listAnchors",
    summary: "Every anchor of the chain, to keep outside the database",
    tag: "Audit",
    secured: true,
    responses: { 200: { description: "Anchors", schema: AnchorList }, 401: unauthorized, 404: notFound },
  },
  {
    method: "get",
    path: "/audit/as_of/{kind}/{id}",
    operationId: "timeTravel",
    summary:
      "A booking, a company balance, a channel or a traveller (personal fields only while not erased) as of a moment, and its difference with another",
    tag: "Audit",
    secured: true,
    params: { kind: AsOfKind, id: z.string().min(1).max(200) },
    query: AsOfQuery,
    responses: {
      200: { description: "The state then", schema: z.object({ data: AsOfResponse }) },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/audit/replays",
    operationId: "listReplays",
    summary: "The projections that can be replayed and the latest replay runs",
    tag: "Audit",
    secured: true,
    responses: {
      200: { description: "Projections and runs", schema: z.object({ data: ReplayOverview }) },
      401: unauthorized,
      404: roleOrScope,
    },
  },
  {
    method: "post",
    path: "/audit/replays",
    operationId: "startReplay",
    summary:
      "Replay a projection side by side and compare it with live (a job; a run whose process dies reads as failed within 30 s)",
    tag: "Audit",
    secured: true,
    body: ReplayStartRequest,
    responses: {
      202: { description: "The run, queued", schema: z.object({ data: ReplayRun }) },
      401: unauthorized,
      404: roleOrScope,
      409: errors("A replay of this projection is already running"),
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/audit/replays/{id}",
    operationId: "getReplay",
    summary: "One replay run: its progress, and the comparison per table once done",
    tag: "Audit",
    secured: true,
    params: { id: z.uuid() },
    responses: {
      200: { description: "The run", schema: z.object({ data: ReplayRun }) },
      401: unauthorized,
      404: roleOrScope,
    },
  },
  {
    method: "post",
    path: "/audit/replays/{id}/switch",
    operationId: "switchReplay",
    summary:
      "Put a fresh generation of a projection in service after a comparison that agreed (administrators)",
    tag: "Audit",
    secured: true,
    params: { id: z.uuid() },
    responses: {
      202: { description: "The switch run, queued", schema: z.object({ data: ReplayRun }) },
      401: unauthorized,
      404: roleOrScope,
      409: errors("A replay of this projection is already running"),
      422: errors("Only a finished comparison that agreed can be switched to"),
    },
  },
  {
    method: "get",
    path: "/audit/export",
    operationId: "exportEvents",
    summary:
      "The same selection as the history as JSON Lines (application/x-ndjson) with chain hashes to verify offline; as one JSON document when asked for JSON",
    tag: "Audit",
    secured: true,
    minPosition: "chain",
    query: HistoryQuery,
    responses: {
      200: {
        description: "A header, then each event with its hash",
        schema: ExportJsonResponse,
      },
      401: unauthorized,
      422: invalid,
    },
  },
];
