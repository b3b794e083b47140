import { describe, expect, it } from "@jest/globals";
import { Config } from "./config.ts";

const SECRET = "s".repeat(32);

describe("ANALYTICS_REPLAY_SAMPLE_RATE", () => {
  it("sets the share of sessions replayed outside production, between 0 and 1", () => {
    expect(
      Config.parse({ NODE_ENV: "test", ANALYTICS_REPLAY_SAMPLE_RATE: "1" }).ANALYTICS_REPLAY_SAMPLE_RATE,
    ).toBe(1);
    expect(Config.safeParse({ NODE_ENV: "test", ANALYTICS_REPLAY_SAMPLE_RATE: "1.5" }).success).toBe(false);
    expect(Config.parse({ NODE_ENV: "test" }).ANALYTICS_REPLAY_SAMPLE_RATE).toBeUndefined();
  });

  it("is refused in production, where the spec's 10 % holds", () => {
    const parsed = Config.safeParse({
      NODE_ENV: "production",
      SESSION_SECRET: SECRET,
      ANALYTICS_REPLAY_SAMPLE_RATE: "1",
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join("."))).toEqual(["ANALYTICS_REPLAY_SAMPLE_RATE"]);
    expect(Config.safeParse({ NODE_ENV: "production", SESSION_SECRET: SECRET }).success).toBe(true);
  });
});
