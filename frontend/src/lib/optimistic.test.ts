import { describe, expect, it } from "@jest/globals";
import { MutationObserver, QueryClient } from "@tanstack/react-query";
import { optimisticUpdate } from "./optimistic.ts";

type Row = { id: string; active: boolean };
const KEY = ["rows"];

/** A switch's mutation against a cached list, answered by `server` (a refusal throws). */
async function toggle(queryClient: QueryClient, server: () => Promise<void>, seen: Row[][]) {
  const observer = new MutationObserver(queryClient, {
    mutationFn: async (_input: { id: string; active: boolean }) => {
      seen.push(queryClient.getQueryData<Row[]>(KEY) ?? []);
      await server();
    },
    ...optimisticUpdate<Row[], { id: string; active: boolean }>(queryClient, KEY, (rows, input) =>
      rows.map((row) => (row.id === input.id ? { ...row, active: input.active } : row)),
    ),
  });
  await observer.mutate({ id: "a", active: false }).catch(() => undefined);
}

describe("an optimistic switch", () => {
  it("when the server refuses, then the list shows the change during the request and the old state after", async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    queryClient.setQueryData<Row[]>(KEY, [{ id: "a", active: true }]);
    const seen: Row[][] = [];
    await toggle(queryClient, () => Promise.reject(new Error("refused")), seen);
    expect(seen).toEqual([[{ id: "a", active: false }]]);
    expect(queryClient.getQueryData(KEY)).toEqual([{ id: "a", active: true }]);
  });

  it("when the server accepts, then the change stays and the list is marked to be read again", async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData<Row[]>(KEY, [{ id: "a", active: true }]);
    await toggle(queryClient, () => Promise.resolve(), []);
    expect(queryClient.getQueryData(KEY)).toEqual([{ id: "a", active: false }]);
    expect(queryClient.getQueryState(KEY)?.isInvalidated).toBe(true);
  });
});
