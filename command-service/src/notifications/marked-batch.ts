/**
 * A batch of mails sent a group at a time, each group's mails marked sent together (one statement) before the next
 * group begins (issue 26: the itineraries on issue and the agents' notification mails go a sweep's batch per job).
 * A process killed meanwhile leaves at most one group's mails sent but not marked: the job's next run sends only the
 * mails not marked, so at most those go out twice, as many as were in flight at once when each mail had a job.
 */

/** How many mails of a batch are in flight at once (the transport's connections, while the next one is written). */
export const SENDING_AT_ONCE = 4;

export interface MarkedBatch<T> {
  id: (item: T) => string;
  send: (item: T) => Promise<void>;
  /** Marks these mails sent (one statement). */
  markSent: (ids: readonly string[]) => Promise<void>;
}

/** Sends every item; answers how many were sent and those refused (the rest are sent and marked regardless). */
export async function sendMarked<T>(
  items: readonly T[],
  batch: MarkedBatch<T>,
): Promise<{ sent: number; refused: { id: string; error: unknown }[] }> {
  const refused: { id: string; error: unknown }[] = [];
  let sent = 0;
  for (let start = 0; start < items.length; start += SENDING_AT_ONCE) {
    const group = items.slice(start, start + SENDING_AT_ONCE);
    const outcomes = await Promise.allSettled(group.map((item) => batch.send(item)));
    const taken: string[] = [];
    outcomes.forEach((outcome, index) => {
      const id = batch.id(group[index] as T);
      if (outcome.status === "fulfilled") taken.push(id);
      else refused.push({ id, error: outcome.reason });
    });
    if (taken.length > 0) await batch.markSent(taken);
    sent += taken.length;
  }
  return { sent, refused };
}

/** The failure a batch's job ends with when mails were refused: it runs again for them (the library's backoff). */
export function refusedMails(
  refused: readonly { id: string; error: unknown }[],
  of: number,
  what: string,
): Error {
  const [first] = refused;
  const reason = first?.error instanceof Error ? first.error.message : String(first?.error);
  return new Error(
    `${refused.length} of ${of} ${what} not sent (${refused.map((r) => r.id).join(", ")}): ${reason}`,
    {
      cause: first?.error,
    },
  );
}
