import { type CatalogueEntry, catalogueEntry, type EntityKind } from "@skyward/contracts/assistant-catalogue";
import type { UserType } from "@skyward/contracts/metadata";
import type { ToolCall } from "@skyward/infra/llm/provider";
import type { Directory, Entity } from "./directory.ts";
import { resolveRef } from "./resolve.ts";

/** A tool call checked against the catalogue, its names resolved to ids and its arguments validated. */
export interface ResolvedCall {
  entry: CatalogueEntry;
  /** Arguments as the ordinary route's schema takes them (ids in place of names). */
  args: Record<string, unknown>;
  /** The entities it names, by argument path. */
  entities: Record<string, Entity>;
}

export type Interpretation =
  | { kind: "calls"; calls: ResolvedCall[] }
  | { kind: "ambiguous"; entity: EntityKind; ref: string; candidates: Entity[] }
  | { kind: "not_found"; entity: EntityKind; ref: string }
  | { kind: "missing"; command: string; fields: string[] }
  | { kind: "not_allowed"; command: string }
  | { kind: "none" };

const getAt = (o: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>(
    (v, k) => (v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined),
    o,
  );

function setAt(o: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) return { ...o, [head]: value };
  const inner = o[head];
  return {
    ...o,
    [head]: setAt(inner && typeof inner === "object" ? (inner as Record<string, unknown>) : {}, rest, value),
  };
}

/**
 * Checks what a provider proposed: only catalogue entries the user's type may run (never what they could not do
 * by hand), names resolved against what the user may see (two matches: a question), arguments valid by the very
 * schema the route validates with. The first problem is the answer; nothing is guessed.
 */
export function interpretCalls(
  calls: readonly ToolCall[],
  dir: Directory,
  userType: UserType,
): Interpretation {
  if (calls.length === 0) return { kind: "none" };
  const resolved: ResolvedCall[] = [];
  for (const call of calls.slice(0, 10)) {
    const entry = typeof call.name === "string" ? catalogueEntry(call.name) : undefined;
    if (!entry?.offered) return { kind: "none" };
    if (!entry.roles.includes(userType)) return { kind: "not_allowed", command: entry.name };
    let args: Record<string, unknown> =
      call.args && typeof call.args === "object" && !Array.isArray(call.args)
        ? { ...(call.args as Record<string, unknown>) }
        : {};
    const entities: Record<string, Entity> = {};
    for (const ref of entry.refs) {
      const value = getAt(args, ref.path);
      if (typeof value !== "string") continue;
      // The entity an earlier step of this plan creates: its id is known once that step has run.
      const created = /^\$new:(\d+)$/u.exec(value);
      if (created && Number(created[1]) < resolved.length) continue;
      const r = resolveRef(dir, ref.kind, value);
      if (r.kind === "many")
        return { kind: "ambiguous", entity: ref.kind, ref: value, candidates: r.candidates };
      if (r.kind === "none") return { kind: "not_found", entity: ref.kind, ref: value };
      args = setAt(args, ref.path, r.entity.id);
      entities[ref.path.join(".")] = r.entity;
    }
    const parsed = entry.args.safeParse(args);
    if (!parsed.success) {
      // A person the request did not name ("deactivate the supervisor"): which one, among the supervisors the caller
      // sees (of the partner named, if one is), asked back; never guessed.
      const failed = new Set(parsed.error.issues.map((i) => i.path.join(".")));
      const unnamed = entry.refs.find(
        (ref) =>
          ref.kind === "supervisor" && failed.has(ref.path.join(".")) && getAt(args, ref.path) === undefined,
      );
      if (unnamed) {
        const agency = typeof args.agency_id === "string" ? args.agency_id : undefined;
        const candidates = dir.entities.filter(
          (e) => e.kind === unnamed.kind && (agency === undefined || e.agency_id === agency),
        );
        if (candidates.length > 1) return { kind: "ambiguous", entity: unnamed.kind, ref: "", candidates };
      }
      const fields = [...new Set(parsed.error.issues.map((i) => String(i.path.at(-1) ?? "input")))];
      return { kind: "missing", command: entry.name, fields };
    }
    resolved.push({ entry, args, entities });
  }
  return { kind: "calls", calls: resolved };
}
