import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "@jest/globals";
import { registry } from "../telemetry/metrics.ts";
import { StreamLocks } from "./stream-locks.ts";

/** skyward_turn_wait_seconds' count and sum so far. */
async function turnWaits(): Promise<{ count: number; sum: number }> {
  const values = (await registry.getSingleMetric("skyward_turn_wait_seconds")?.get())?.values ?? [];
  const of = (name: string) =>
    (values as { metricName?: string; value: number }[]).find((v) => v.metricName === name)?.value ??
    Number.NaN;
  return { count: of("skyward_turn_wait_seconds_count"), sum: of("skyward_turn_wait_seconds_sum") };
}

/** `work` in the stream's turn, ended when it settles. */
async function inTurn<T>(locks: StreamLocks, streamId: string, work: () => Promise<T>): Promise<T> {
  const end = await locks.acquire(streamId);
  try {
    return await work();
  } finally {
    end();
  }
}

describe("stream locks", () => {
  it("when turns of one stream overlap, then they run one at a time in the order they came", async () => {
    const locks = new StreamLocks();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const turn = (name: string, ms: number) =>
      inTurn(locks, "balance-1", async () => {
        running++;
        most = Math.max(most, running);
        log.push(`start ${name}`);
        await sleep(ms);
        log.push(`end ${name}`);
        running--;
        return name;
      });
    expect(await Promise.all([turn("a", 15), turn("b", 1), turn("c", 5)])).toEqual(["a", "b", "c"]);
    expect(most).toBe(1);
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(locks.size).toBe(0);
  });

  it("when a turn fails, then its error reaches its caller and the next turn still runs", async () => {
    const locks = new StreamLocks();
    const failing = inTurn(locks, "balance-1", async () => {
      await sleep(2);
      throw new Error("supplier down");
    });
    const next = inTurn(locks, "balance-1", async () => "next");
    await expect(failing).rejects.toThrow("supplier down");
    expect(await next).toBe("next");
    expect(locks.size).toBe(0);
  });

  it("when turns are for different streams, then they run at the same time", async () => {
    const locks = new StreamLocks();
    let running = 0;
    let most = 0;
    const turn = (stream: string) =>
      inTurn(locks, stream, async () => {
        running++;
        most = Math.max(most, running);
        await sleep(5);
        running--;
      });
    await Promise.all([turn("balance-1"), turn("balance-2"), turn("balance-3")]);
    expect(most).toBe(3);
  });

  it("when a turn waits for the one before it, then its wait is counted in skyward_turn_wait_seconds", async () => {
    const before = await turnWaits();
    const locks = new StreamLocks();
    const endFirst = await locks.acquire("balance-1");
    const second = locks.acquire("balance-1");
    await sleep(30);
    endFirst();
    (await second)();
    const after = await turnWaits();
    expect(after.count - before.count).toBe(2);
    expect(after.sum - before.sum).toBeGreaterThanOrEqual(0.025);
    expect(locks.size).toBe(0);
  });
});
