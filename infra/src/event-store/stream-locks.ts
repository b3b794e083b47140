import { metrics } from "../telemetry/metrics.ts";

/**
 * Commands of this process that write one contended stream (a company balance, charged by every issue of the
 * company) take turns here before deciding on it. Without turns, concurrent issues of one company refused each
 * other's appends (wrong expected version) and re-ran, a quarter of them at 100 flows/s, which made the slow tail.
 * A command's turn ends when its append is handed to the store (runCommand's `turn`), not when it commits: the next
 * decides on the state it leaves and is chained after it, so a company's charges commit together rather than one per
 * round trip (issue 26). Correctness does not depend on turns: the expected version still refuses any other writer.
 */
export class StreamLocks {
  /** The last turn queued per stream; it settles when that turn ends. */
  private readonly tails = new Map<string, Promise<void>>();

  /** Waits for the stream's turn; answers the function that ends it (once; later calls do nothing). */
  async acquire(streamId: string): Promise<() => void> {
    const started = metrics.start();
    const previous = this.tails.get(streamId);
    let end = () => {};
    const turn = new Promise<void>((resolve) => {
      end = resolve;
    });
    const tail = previous ? previous.then(() => turn) : turn;
    this.tails.set(streamId, tail);
    if (previous) await previous;
    metrics.turnTaken(started);
    return () => {
      end();
      if (this.tails.get(streamId) === tail) this.tails.delete(streamId);
    };
  }

  /** Streams with a turn running or queued. */
  get size(): number {
    return this.tails.size;
  }
}
