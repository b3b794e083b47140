import { assertNever } from "@skyward/contracts/assert-never";
import { isAdministrator } from "@skyward/infra/http/auth";
import type { Principal } from "@skyward/infra/http/context";

/** Administrators and auditors (read-only administrators, DESIGN.md section 5): every tenant's rows are theirs to read. */
export const readsEverything = (p: Principal): boolean => isAdministrator(p) || p.userType === "Auditor";

/** Who reads the administration screens' data: administrators, auditors, and supervisors inside their agency. */
export const ADMINISTRATION_READERS = ["Admin", "Support", "Auditor", "Supervisor"] as const;

/**
 * The rows of a booking-like table (columns agency_id, company_id, agent_id) the caller may see, as a SQL condition
 * on alias `b` with its parameters appended after `offset` (DESIGN.md roles table).
 */
export function bookingScope(p: Principal, offset: number): { sql: string; params: unknown[] } {
  // A demo user sees only the fake bookings it made itself, whatever its user type: never a colleague's real ones.
  if (p.demo) return { sql: `(b.agent_id = $${offset + 1} AND b.fake_booking)`, params: [p.userId] };
  switch (p.userType) {
    case "Admin":
    case "Support":
    case "Auditor":
      return { sql: "true", params: [] };
    case "Supervisor":
      return { sql: `b.agency_id = $${offset + 1}`, params: [p.agencyId] };
    case "Agent":
      return {
        sql: `(b.company_id = ANY($${offset + 1}) AND (b.agent_id = $${offset + 2} OR EXISTS (
                SELECT 1 FROM read.companies c WHERE c.id = b.company_id AND c.shared_bookings)))`,
        params: [p.companyIds, p.userId],
      };
    default:
      return assertNever(p.userType);
  }
}

/** Companies whose balance the caller may see. */
export function companyScope(p: Principal, offset: number): { sql: string; params: unknown[] } {
  // A demo user moves no money, and a real company's balance is not its business.
  if (p.demo) return { sql: "false", params: [] };
  switch (p.userType) {
    case "Admin":
    case "Support":
    case "Auditor":
      return { sql: "true", params: [] };
    case "Supervisor":
      return { sql: `c.agency_id = $${offset + 1}`, params: [p.agencyId] };
    case "Agent":
      return { sql: `c.id = ANY($${offset + 1})`, params: [p.companyIds] };
    default:
      return assertNever(p.userType);
  }
}
