import { Refusal, type RefusalKind } from "../refusal.ts";
import { Conflict, DomainError, IllegalState, InvalidInput, NotFound } from "./errors.ts";

/**
 * The one place a decider's refusal (refusal.ts) becomes an HTTP answer: each kind its status and title, the code and
 * reason as they are. `errorHandler` answers every refusal a route lets through with it.
 */
const HTTP_OF_REFUSAL: Record<RefusalKind, (refusal: Refusal) => DomainError> = {
  missing: (r) => new NotFound(r.reason, r.code), // 404 "Not found"
  conflict: (r) => new Conflict(r.reason, r.code), // 409 "Conflict"
  not_allowed: (r) => new IllegalState(r.reason, r.code), // 422 "Not allowed now"
  invalid: (r) => new InvalidInput(r.problems), // 422 "Invalid input", one envelope entry per field
};

export function httpErrorOf(refusal: Refusal): DomainError {
  return HTTP_OF_REFUSAL[refusal.kind](refusal);
}

/** A named client error as HTTP: a route's own (a DomainError) as it is, a decider's refusal mapped; else null. */
export function asHttpError(error: unknown): DomainError | null {
  if (error instanceof Refusal) return httpErrorOf(error);
  return error instanceof DomainError ? error : null;
}
