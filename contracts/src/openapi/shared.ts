import { z } from "zod";
import { ErrorEnvelope } from "../errors.ts";
import { Position } from "../position.ts";

/*
 * What the documented routes of every capability share: the route's shape, and the answers and headers many routes
 * name. The routes themselves are in the module of their capability; ../openapi.ts assembles the document.
 */

/** A response header, documented with its JSON Schema as it is (headers are plain text, never zod-parsed). */
export interface DocumentedHeader {
  description: string;
  required: boolean;
  schema: Record<string, unknown>;
}

/** An answer: JSON of `schema`, or a file of `mediaType` (a PDF, a spreadsheet), or either (by a query parameter). */
export type DocumentedResponse = {
  description: string;
  headers?: Record<string, DocumentedHeader>;
} & ({ schema: z.ZodType; mediaType?: string } | { schema?: undefined; mediaType: string });

export interface DocumentedRoute {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI style: /bookings/{locator}. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** false: no credentials needed. */
  secured: boolean;
  params?: Record<string, z.ZodType>;
  query?: z.ZodObject;
  body?: z.ZodType;
  responses: Record<number, DocumentedResponse>;
  /**
   * A read that honours `X-Min-Position` (read-your-writes): "read_models" waits for the read models it uses
   * (infra/src/http/read-models.ts), "chain" for the tamper-evident chain (query-service/src/audit/routes.ts).
   */
  minPosition?: "read_models" | "chain";
}

export const errors = (description: string): DocumentedResponse => ({ description, schema: ErrorEnvelope });
export const unauthorized = errors("Not signed in, or the API token is not valid");
export const invalid = errors("The input does not match the contract (each field named)");
export const notFound = errors("Nothing of that name within the caller's scope");
export const sessionRequired = errors(
  "Called with an API token: issuing and revoking tokens take a signed-in session",
);
export const position = Position;

export const idParam = { id: z.string().min(1).max(100) };
export const roleOrScope = errors("Outside the caller's scope (a route not for its role answers 403)");
/** The media type of the sales spreadsheets (Excel). */
export const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/** The request header of read-your-writes: the `position` a command answered. */
export const minPositionHeader = (waitsFor: "read_models" | "chain") => ({
  name: "X-Min-Position",
  in: "header",
  required: false,
  description:
    waitsFor === "chain"
      ? "Read-your-writes: the `position` your last command answered. The history waits (up to 2 s) until the " +
        "tamper-evident chain has linked that place in the feed; past that it answers with `X-Stale: true`. A " +
        "malformed value answers 422."
      : "Read-your-writes: the `position` your last command answered. The read waits (up to 2 s) until the read " +
        "models it uses have passed that place in the feed; past that it answers with `X-Stale: true`. A malformed " +
        "value answers 422.",
  schema: null as unknown,
});
/** The answer header of a read that could not wait long enough for `X-Min-Position`. */
export const staleHeader = {
  "X-Stale": {
    description: "Present (`true`) when the read models had not reached X-Min-Position within the wait",
    required: false,
    schema: { type: "string", enum: ["true"] },
  },
};

/** Every secured operation may answer this once its API token used up its calls (infra/src/http/api-rate-limit.ts). */
export const rateLimited = {
  description: "Too many calls with this API token: try again after Retry-After seconds",
  headers: {
    "Retry-After": {
      description: "Seconds until the token may call again",
      required: true,
      schema: { type: "integer", minimum: 1 },
    },
  },
};

/**
 * Every secured operation answers this to a signed-in user whose type may never use it (infra/src/http/auth.ts,
 * roleRefusal): an unknown route or an id outside the caller's scope stays 404.
 */
export const roleRefused = {
  description:
    "Not for the caller's role. The error's code names who may: admin_user_only (Admin users), admin_only " +
    "(administrators: Admin and Support), supervisor_or_admin_only, admin_or_auditor_only, " +
    "supervisor_admin_or_auditor_only, agent_only; auditor_read_only for an auditor's command (auditors only read)",
};
