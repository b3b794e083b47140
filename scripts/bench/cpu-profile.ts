// `npm run bench -- cpu-profile <file.cpuprofile> [--top=30] [--from=S] [--to=S]` (issue 26): what a V8 CPU profile
// (as `BENCH_CPU_PROFILE=<dir> npm run bench -- booking-flow` writes one per app process) spent its busy time on:
// the top functions by self time and by total (inclusive) time, and the same grouped by package or source file,
// each in ms and in percent of the busy (not idle) time. --from/--to keep the samples between those seconds after
// the profile's start (the bench's measured window: the per-second busy line printed first shows where it is).
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function arg(args: readonly string[], name: string): number | null {
  const found = args.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split("=")[1]) : null;
}

/** A frame's package (node_modules/<name>), or its file in this repository, or the Node internal module. */
function placeOf(frame: CallFrame): string {
  const url = frame.url.replace(/^file:\/\//, "");
  if (url === "") return "(native)";
  const inModules = url.lastIndexOf("node_modules/");
  if (inModules >= 0) {
    const [scope, name] = url.slice(inModules + "node_modules/".length).split("/");
    return scope?.startsWith("@") ? `${scope}/${name}` : (scope ?? url);
  }
  const inRepo = /\/(command-service|query-service|projectors|infra|contracts|scripts|frontend)\/.*$/.exec(
    url,
  );
  return inRepo ? inRepo[0].slice(1) : url;
}

const nameOf = (frame: CallFrame) =>
  `${frame.functionName || "(anonymous)"} ${placeOf(frame)}:${frame.lineNumber + 1}`;

export async function run(args: readonly string[]): Promise<void> {
  const file = args.find((a) => !a.startsWith("--"));
  if (!file)
    throw new Error("usage: npm run bench -- cpu-profile <file.cpuprofile> [--top=30] [--from=S] [--to=S]");
  const top = arg(args, "top") ?? 30;
  const from = (arg(args, "from") ?? 0) * 1e6;
  const to = (arg(args, "to") ?? Number.POSITIVE_INFINITY) * 1e6;
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const idle = (id: number) => byId.get(id)?.callFrame.functionName === "(idle)";

  // Time per sampled node inside the window, and the busy time per second of the whole profile.
  const selfOf = new Map<number, number>();
  const perSecond: number[] = [];
  let at = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (!idle(id)) perSecond[Math.floor(at / 1e6)] = (perSecond[Math.floor(at / 1e6)] ?? 0) + delta;
    if (at >= from && at <= to) selfOf.set(id, (selfOf.get(id) ?? 0) + delta);
  });
  console.log(
    `${file}\nbusy ms per second of the profile: ${Array.from(perSecond, (us, s) => `${s}:${Math.round((us ?? 0) / 1000)}`).join(" ")}`,
  );

  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const selfByPlace = new Map<string, number>();
  const totalByPlace = new Map<string, number>();
  let busy = 0;
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  for (const [id, us] of selfOf) {
    if (idle(id)) continue;
    busy += us;
    const frame = (byId.get(id) as ProfileNode).callFrame;
    add(self, nameOf(frame), us);
    add(selfByPlace, placeOf(frame), us);
    // Inclusive: each function and place once per sampled stack, however often it recurs in it.
    const names = new Set<string>();
    const places = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
      const callFrame = (byId.get(node) as ProfileNode).callFrame;
      names.add(nameOf(callFrame));
      places.add(placeOf(callFrame));
    }
    for (const name of names) add(total, name, us);
    for (const place of places) add(totalByPlace, place, us);
  }
  const print = (title: string, map: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(
        `${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / busy).toFixed(1).padStart(5)} %  ${key}`,
      );
  };
  console.log(
    `busy in the window: ${(busy / 1000).toFixed(0)} ms (percentages below are of it; a profile taken on a loaded machine charges a function the time its thread waited for a core)`,
  );
  print("self time by function", self);
  print("total time by function", total);
  print("self time by package or file", selfByPlace);
  print("total time by package or file", totalByPlace);
}
