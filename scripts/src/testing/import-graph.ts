import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { parseSync } from "@swc/core";

/**
 * The import graph of the workspaces' TypeScript sources, parsed with swc (TypeScript 7 has no JavaScript API), and
 * the circles in it. Every edge counts: static imports and re-exports, `import type` (erased at run time, but the two
 * modules still cannot be understood, changed or type-checked apart, and dropping a `type` keyword turns it into a
 * run-time circle) and `import()` (a lazy import is not a way out of a circle: the loaded chunk still depends on
 * its loader).
 */

export interface ImportEdge {
  to: string;
  typeOnly: boolean;
  dynamic: boolean;
}

export type ImportGraph = Map<string, ImportEdge[]>;

const WORKSPACES = [
  "contracts",
  "infra",
  "command-service",
  "query-service",
  "projectors",
  "scripts",
  "frontend",
];

function sources(folder: string, into: string[]): string[] {
  if (!existsSync(folder)) return into;
  for (const name of readdirSync(folder)) {
    if (name === "node_modules" || name === "dist") continue;
    const path = join(folder, name);
    if (statSync(path).isDirectory()) sources(path, into);
    else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) into.push(path);
  }
  return into;
}

/** A relative specifier or a workspace's (`@skyward/<workspace>/<path>`, package exports `./*` → `./src/*.ts`). */
function resolveSpecifier(root: string, from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith(".")) base = resolve(dirname(from), specifier);
  else {
    const workspace = /^@skyward\/([^/]+)(?:\/(.+))?$/.exec(specifier);
    if (!workspace) return null;
    base = join(root, workspace[1] as string, "src", workspace[2] ?? "index");
  }
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, "index.ts"),
    join(base, "index.tsx"),
  ])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

interface Node {
  type?: string;
  typeOnly?: boolean;
  isTypeOnly?: boolean;
  source?: { value: string };
  specifiers?: Node[];
  callee?: { type: string };
  arguments?: { expression: { type: string; value?: string } }[];
}

/** Every `import("...")` with a literal specifier, anywhere in the module. */
function dynamicImports(node: unknown, found: string[]): string[] {
  if (Array.isArray(node)) for (const child of node) dynamicImports(child, found);
  else if (node && typeof node === "object") {
    const call = node as Node;
    const argument = call.arguments?.[0]?.expression;
    if (
      call.type === "CallExpression" &&
      call.callee?.type === "Import" &&
      argument?.type === "StringLiteral"
    )
      found.push(argument.value as string);
    for (const child of Object.values(node))
      if (child && typeof child === "object") dynamicImports(child, found);
  }
  return found;
}

function edgesOf(root: string, file: string): ImportEdge[] {
  const module = parseSync(readFileSync(file, "utf8"), { syntax: "typescript", tsx: file.endsWith(".tsx") });
  const edges: ImportEdge[] = [];
  const add = (specifier: string, typeOnly: boolean, dynamic: boolean) => {
    const to = resolveSpecifier(root, file, specifier);
    if (to) edges.push({ to, typeOnly, dynamic });
  };
  for (const item of module.body as Node[]) {
    if (!item.source) continue;
    if (
      item.type !== "ImportDeclaration" &&
      item.type !== "ExportNamedDeclaration" &&
      item.type !== "ExportAllDeclaration"
    )
      continue;
    const specifiers = item.specifiers ?? [];
    const typeOnly =
      item.typeOnly === true || (specifiers.length > 0 && specifiers.every((s) => s.isTypeOnly));
    add(item.source.value, typeOnly, false);
  }
  for (const specifier of dynamicImports(module.body, [])) add(specifier, false, true);
  return edges;
}

/** The graph of every workspace's `src` folder, keyed by path relative to the repository root. */
export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const workspace of WORKSPACES)
    for (const file of sources(join(root, workspace, "src"), []))
      graph.set(
        relative(root, file),
        edgesOf(root, file).map((edge) => ({ ...edge, to: relative(root, edge.to) })),
      );
  return graph;
}

/**
 * The circles: each strongly connected component of more than one module (or a module importing itself), as one
 * cycle through it written `2 modules, as a.ts → b.ts → a.ts`, the edge marked `(type)` or `(lazy)` when it is one.
 */
export function importCircles(graph: ImportGraph): string[] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const { to } of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfImport = (graph.get(node) ?? []).some((edge) => edge.to === node);
    if (component.length > 1 || selfImport) components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((component) => describeCycle(graph, new Set(component), component[0] as string));
}

/** One shortest way from `start` back to itself inside its component (breadth first). */
function describeCycle(graph: ImportGraph, component: Set<string>, start: string): string {
  const previous = new Map<string, { from: string; edge: ImportEdge }>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const edge of graph.get(node) ?? []) {
      if (!component.has(edge.to) || previous.has(edge.to)) continue;
      previous.set(edge.to, { from: node, edge });
      if (edge.to === start) queue.length = 0;
      else queue.push(edge.to);
      if (edge.to === start) break;
    }
  }
  const steps: string[] = [];
  let at = start;
  do {
    const step = previous.get(at) as { from: string; edge: ImportEdge };
    const mark = step.edge.typeOnly ? " (type)" : step.edge.dynamic ? " (lazy)" : "";
    steps.unshift(`→${mark} ${at}`);
    at = step.from;
  } while (at !== start);
  return `${component.size} modules, as ${[start, ...steps].join(" ")}`;
}
