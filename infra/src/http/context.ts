import type { SourceChannel, UserType } from "@skyward/contracts/metadata";

/** Who is calling, resolved once per request; every command and read is scoped by it. */
export interface Principal {
  userId: string;
  userType: UserType;
  agencyId: string | null;
  companyIds: readonly string[];
  demo: boolean;
  sessionId: string | null;
}

export interface RequestContext {
  traceId: string;
  source: SourceChannel;
  principal: Principal | null;
  /** What caused the request's events (the assistant's plan id); none for a request of its own. */
  causationId?: string;
}

declare global {
  namespace Express {
    interface Request {
      context: RequestContext;
    }
  }
}
