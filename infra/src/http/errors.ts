import type { ApiError } from "@skyward/contracts/errors";
import type { FieldProblem } from "../refusal.ts";

type Source = ApiError["source"];

/** A named failure a client can cause; mapped to the `{errors: [...]}` envelope by `errorHandler`. */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail?: string,
    readonly source?: Source,
  ) {
    super(detail ?? title);
    this.name = new.target.name;
  }

  /**
   * Where the refused operation's own writes left the feed (an issue the airline failed: its charge credited back),
   * answered as the envelope's `position` so that the caller reads what it wrote (`X-Min-Position`).
   */
  position?: string;

  /** Marks this refusal as answered after the operation wrote up to `position` (nothing when it wrote nothing). */
  wrote(position: string | null): this {
    if (position) this.position = position;
    return this;
  }

  toApiErrors(): ApiError[] {
    const error: ApiError = { status: String(this.status), code: this.code, title: this.title };
    if (this.detail !== undefined) error.detail = this.detail;
    if (this.source !== undefined) error.source = this.source;
    return [error];
  }
}

export class NotFound extends DomainError {
  constructor(detail = "The requested resource was not found", code = "not_found") {
    super(404, code, "Not found", detail);
  }
}

export class Unauthorized extends DomainError {
  constructor(detail = "You need to sign in first", code = "unauthorized") {
    super(401, code, "Unauthorized", detail);
  }
}

export class Forbidden extends DomainError {
  constructor(detail = "You are not allowed to do this", code = "forbidden") {
    super(403, code, "Forbidden", detail);
  }
}

export class Conflict extends DomainError {
  constructor(detail: string, code = "conflict") {
    super(409, code, "Conflict", detail);
  }
}

/** The request is well-formed but the thing it acts on is not in a state that allows it. */
export class IllegalState extends DomainError {
  constructor(detail: string, code = "illegal_state") {
    super(422, code, "Not allowed now", detail);
  }
}

/** The request cannot be read at all: a broken escape, a character no field may hold, JSON nested too deep. */
export class BadRequest extends DomainError {
  constructor(detail: string, code = "bad_request", source?: Source) {
    super(400, code, "Bad request", detail, source);
  }
}

export class PayloadTooLarge extends DomainError {
  // The code body-parser's error always had, which clients already translate.
  constructor(detail = "The request body is larger than this server accepts", code = "entity_too_large") {
    super(413, code, "Payload too large", detail);
  }
}

/** A body in a type or charset other than the JSON in UTF-8 every route reads. */
export class UnsupportedMediaType extends DomainError {
  constructor(detail = "Send the body as application/json in UTF-8", code = "unsupported_media_type") {
    super(415, code, "Unsupported media type", detail);
  }
}

export class TooManyRequests extends DomainError {
  constructor(
    detail = "Too many attempts, try again later",
    code = "too_many_requests",
    /** Sent as `Retry-After` when known. */
    readonly retryAfterSeconds?: number,
  ) {
    super(429, code, "Too many requests", detail);
  }
}

export type { FieldProblem } from "../refusal.ts";

/** Input that failed validation; one envelope entry per bad field. */
export class InvalidInput extends DomainError {
  constructor(
    readonly problems: readonly FieldProblem[],
    status = 422,
  ) {
    super(
      status,
      "invalid_input",
      "Invalid input",
      problems.map((p) => `${p.pointer || "/"}: ${p.detail}`).join("; "),
    );
  }

  override toApiErrors(): ApiError[] {
    return this.problems.map((p) => ({
      status: String(this.status),
      code: "invalid_input",
      title: "Invalid input",
      detail: `${p.pointer.replace(/^\//, "").replaceAll("/", ".") || "input"} ${p.detail}`,
      source:
        p.location === "query" || p.location === "header"
          ? { parameter: p.pointer.replace(/^\//, "") }
          : { pointer: p.pointer },
    }));
  }
}
