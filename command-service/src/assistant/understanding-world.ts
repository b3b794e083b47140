import { catalogueEntry } from "@skyward/contracts/assistant-catalogue";
import type { UserType } from "@skyward/contracts/metadata";
import type { ToolCall } from "@skyward/infra/llm/provider";
import { type Directory, entity } from "./directory.ts";
import { parseAdminRequest } from "./embedded.ts";
import { interpretCalls } from "./interpret.ts";
import { checkCalls, type Verdict } from "./safety.ts";

/**
 * The assistant's understanding tests' world of its own (names no evaluation table uses), and the parse and verdict
 * the route gives over it: shared by understanding.test.ts and understanding-v3-held.test.ts.
 */
export const dir: Directory = {
  entities: [
    entity({ kind: "agency", id: "ag-baltic", name: "Baltic Wings", agency_id: "ag-baltic", detail: null }),
    entity({ kind: "agency", id: "ag-iberia", name: "Sierra Viajes", agency_id: "ag-iberia", detail: null }),
    entity({
      kind: "company",
      id: "co-riga",
      name: "Baltic Wings Riga",
      agency_id: "ag-baltic",
      detail: "Baltic Wings",
    }),
    entity({
      kind: "company",
      id: "co-tallinn",
      name: "Baltic Wings Tallinn",
      agency_id: "ag-baltic",
      detail: "Baltic Wings",
    }),
    entity({
      kind: "company",
      id: "co-sevilla",
      name: "Sierra Sevilla",
      agency_id: "ag-iberia",
      detail: "Sierra Viajes",
    }),
    entity({ kind: "channel", id: "ch-baltic", name: "Main NDC", agency_id: "ag-baltic", detail: null }),
    entity({ kind: "channel", id: "ch-iberia", name: "Main NDC", agency_id: "ag-iberia", detail: null }),
    entity({
      kind: "supervisor",
      id: "u-ivan",
      name: "Ivan Petrenko",
      agency_id: "ag-baltic",
      detail: "ivan@baltic.test",
    }),
    entity({
      kind: "supervisor",
      id: "u-zofia",
      name: "Zofia Lis",
      agency_id: "ag-iberia",
      detail: "zofia@sierra.test",
    }),
  ],
};

export const admin = { userType: "Admin" as UserType, agencyId: null };
export const balticSupervisor = { userType: "Supervisor" as UserType, agencyId: "ag-baltic" };
export const parse = (
  text: string,
  ctx: { userType: UserType; agencyId: string | null; today?: string } = admin,
) => parseAdminRequest(text, dir, ctx);

/** The verdict the route gives: the calls resolved, then checked against the request. */
export function verdictOf(
  text: string,
  ctx: { userType: UserType; agencyId: string | null; userId?: string } = admin,
): Verdict {
  const calls = parse(text, ctx);
  const i = interpretCalls(calls, dir, ctx.userType);
  return checkCalls({
    text,
    calls: i.kind === "calls" ? i.calls : [],
    dir,
    outside: [],
    userType: ctx.userType,
    agencyId: ctx.agencyId,
    ...(ctx.userId ? { userId: ctx.userId } : {}),
    callsIn: (part, before = []) => {
      const earlier: ToolCall[] = before.length > 0 ? parseAdminRequest(before.join(", "), dir, ctx) : [];
      return parseAdminRequest(part, dir, { ...ctx, before: earlier }).length;
    },
    commandsIn: (part, before = []) => {
      const earlier: ToolCall[] = before.length > 0 ? parseAdminRequest(before.join(", "), dir, ctx) : [];
      return parseAdminRequest(part, dir, { ...ctx, before: earlier })
        .map((c) => c.name)
        .filter((name) => catalogueEntry(name)?.kind === "command");
    },
  });
}
