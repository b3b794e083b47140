import { Config } from "@skyward/contracts/config";

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = Config.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`invalid configuration:\n${lines}`);
  }
  return result.data;
}
