// `npm run bench -- <name> [args]`: runs the benchmark in scripts/bench/<name>.ts (its exported `run`).
import { readdir } from "node:fs/promises";

interface Benchmark {
  run(args: readonly string[]): Promise<void>;
}

const available = (await readdir(new URL(".", import.meta.url)))
  .filter((file) => file.endsWith(".ts") && file !== "index.ts")
  .map((file) => file.slice(0, -".ts".length))
  .sort();
const [name, ...args] = process.argv.slice(2);

if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <name>\nbenchmarks: ${available.join(", ")}`);
  process.exit(2);
}
const benchmark = (await import(`./${name}.ts`)) as Benchmark;
await benchmark.run(args);
