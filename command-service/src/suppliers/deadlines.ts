import type { SupplierCallName } from "@skyward/contracts/config";
import { DomainError } from "@skyward/infra/http/errors";
import { metrics } from "@skyward/infra/telemetry/metrics";
import { traced } from "@skyward/infra/telemetry/tracing";
import type { Supplier } from "./supplier.ts";

/**
 * Calls whose outcome stays unknown past the deadline: the airline may still act on them. Their timeout is no
 * refusal (the operation stays open, "being completed", for reconciliation to look up by its id), so it is not a
 * DomainError.
 */
const OUTCOME_UNKNOWN: ReadonlySet<string> = new Set<SupplierCallName>([
  "issue",
  "void",
  "cancel",
  "refundConfirm",
  "reissue",
  "orderAncillaries",
  "refundEmd",
  "answerScheduleChange",
  "operationOutcome",
]);

/** An operation the supplier did not answer in time; what became of it is asked later by its id. */
export class SupplierOperationTimedOut extends Error {
  override readonly name = "SupplierOperationTimedOut";
}

/** A call that changes nothing at the airline (search, prices, rules, a quote) that did not answer in time. */
export class SupplierTimeout extends DomainError {
  constructor(
    detail = "The airline system did not answer in time, try again later",
    code = "supplier_timeout",
  ) {
    super(504, code, "Supplier timeout", detail);
  }
}

export interface SupplierDeadlines {
  /** Every call's deadline unless `perCall` names it (SUPPLIER_TIMEOUT_MS). */
  defaultMs: number;
  perCall?: Partial<Record<SupplierCallName, number>>;
}

/** How a failed supplier call ends in the metrics: out of time, refused by the airline (a client's error), or not. */
function supplierOutcome(error: unknown): "refused" | "timeout" | "error" {
  if (error instanceof SupplierOperationTimedOut || error instanceof SupplierTimeout) return "timeout";
  return error instanceof DomainError && error.status < 500 ? "refused" : "error";
}

/**
 * The supplier with a deadline on every call: past it the caller gets on at once while the call, which cannot be
 * taken back, runs on unheard (an operation's late answer is refused once reconciliation has fenced its id).
 */
export function withDeadlines(supplier: Supplier, deadlines: SupplierDeadlines): Supplier {
  return new Proxy(supplier, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function" || typeof property !== "string") return value;
      const ms = deadlines.perCall?.[property as SupplierCallName] ?? deadlines.defaultMs;
      return (...args: unknown[]) => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            const seconds = `${Math.round(ms / 100) / 10} s`;
            reject(
              OUTCOME_UNKNOWN.has(property)
                ? new SupplierOperationTimedOut(`the supplier's ${property} did not answer within ${seconds}`)
                : new SupplierTimeout(`The airline system did not answer within ${seconds}, try again later`),
            );
          }, ms);
        });
        const started = metrics.start();
        const call = traced(`supplier ${property}`, { "skyward.supplier.operation": property }, async () =>
          (value as (...a: unknown[]) => unknown).apply(target, args),
        );
        // A late failure of the abandoned call is nobody's to hear.
        call.catch(() => {});
        return Promise.race([call, late])
          .then(
            (answer) => {
              metrics.supplierCalled(property, started, "ok");
              return answer;
            },
            (error: unknown) => {
              metrics.supplierCalled(property, started, supplierOutcome(error));
              throw error;
            },
          )
          .finally(() => clearTimeout(timer));
      };
    },
  });
}
