import type { Principal } from "@skyward/infra/http/context";
import type { SalesViewer } from "@skyward/infra/sales/lines";

/** The caller as the sales scope needs it. */
export const viewerOf = (p: Principal): SalesViewer => ({
  userId: p.userId,
  userType: p.userType,
  agencyId: p.agencyId,
  companyIds: p.companyIds,
  demo: p.demo,
});
