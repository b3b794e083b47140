/**
 * Commands of this process that write one contended stream (a company balance, charged by every issue of the
 * company) take turns here before reading and appending it. Without turns, concurrent issues of one company
 * refused each other's appends (wrong expected version) and re-ran, a quarter of them at 100 flows/s, which made
 * the slow tail. Correctness does not depend on it: the expected version still refuses a writer of another process.
 */
export class StreamLocks {
  /** The last turn queued per stream; it settles when that turn ends. */
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(streamId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(streamId);
    let end = () => {};
    const turn = new Promise<void>((resolve) => {
      end = resolve;
    });
    const tail = previous ? previous.then(() => turn) : turn;
    this.tails.set(streamId, tail);
    try {
      if (previous) await previous;
      return await work();
    } finally {
      end();
      if (this.tails.get(streamId) === tail) this.tails.delete(streamId);
    }
  }

  /** Streams with a turn running or queued. */
  get size(): number {
    return this.tails.size;
  }
}
