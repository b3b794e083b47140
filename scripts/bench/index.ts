// `npm run bench -- <name> [args]`: runs the benchmark in scripts/bench/<name>.ts (its exported `run`). Each
// benchmark makes databases of its own on DATABASE_URL's server; with DATA_DIR instead, on the embedded server an
// `npm start` of that folder runs (found through its record); with neither, on a fresh embedded server of its own.
import { readdir } from "node:fs/promises";
import { readConfig } from "@skyward/infra/config";
import { runningEmbeddedServer } from "../src/embedded.ts";

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
const config = readConfig();
if (!config.DATABASE_URL && config.DATA_DIR) {
  const server = await runningEmbeddedServer(config).catch((error: Error) => {
    console.error(error.message);
    process.exit(2);
  });
  console.log(`benchmarking on the embedded PostgreSQL of DATA_DIR (port ${server.port})`);
  process.env.DATABASE_URL = server.url;
}
const benchmark = (await import(`./${name}.ts`)) as Benchmark;
await benchmark.run(args);
