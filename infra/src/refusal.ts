/*
 * A decider's "no", in domain terms: what kind of refusal it is, its code (clients translate it, errors.json) and the
 * reason in words. Deciders throw these and know nothing of HTTP; the HTTP edge maps each kind to a status, in one
 * place (http/refusals.ts).
 */

/**
 * - `missing`: the thing the command acts on does not exist (or is not the caller's to see);
 * - `conflict`: it collides with the thing as it is now (taken, already there, changed or in flight meanwhile): read
 *   it again, then decide;
 * - `not_allowed`: the thing's state does not allow it (a held booking voided, a deleted company charged);
 * - `invalid`: a value of the command breaks a rule of the domain (the fields named in `problems`).
 */
export type RefusalKind = "missing" | "conflict" | "not_allowed" | "invalid";

/** A field of the command that breaks a rule: its JSON pointer and what is wrong with it. */
export interface FieldProblem {
  pointer: string;
  detail: string;
  location?: "body" | "query" | "params" | "header";
}

export class Refusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    readonly code: string,
    readonly reason: string,
    readonly problems: readonly FieldProblem[] = [],
  ) {
    super(reason);
    this.name = "Refusal";
  }
}

/** The refusals a decider makes, by kind. */
export const refuse = {
  missing: (reason: string, code: string) => new Refusal("missing", code, reason),
  conflict: (reason: string, code: string) => new Refusal("conflict", code, reason),
  notAllowed: (reason: string, code: string) => new Refusal("not_allowed", code, reason),
  invalid: (problems: readonly FieldProblem[]) =>
    new Refusal(
      "invalid",
      "invalid_input",
      problems.map((p) => `${p.pointer || "/"}: ${p.detail}`).join("; "),
      problems,
    ),
};

/** Whether an error is a decider's refusal (with this code, when given). */
export function isRefusal(error: unknown, code?: string): error is Refusal {
  return error instanceof Refusal && (code === undefined || error.code === code);
}
