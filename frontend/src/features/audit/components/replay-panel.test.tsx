import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import type { ReplayRun } from "@skyward/contracts/replay";
import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { resetApiClient } from "../../../lib/api-client.ts";
import { createQueryClient } from "../../../lib/query-client.ts";
import { type FakeServer, fakeServer } from "../../../test-utils/fake-server.ts";
import { renderWithProviders } from "../../../test-utils/render.tsx";
import { ReplayPanel } from "./replay-panel.tsx";

const RUN_ID = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";
const run: ReplayRun = {
  id: RUN_ID,
  projection: "bookings",
  kind: "compare",
  status: "queued",
  started_by: "u-auditor",
  done_events: 0,
  total_events: 10,
  report: null,
  error: null,
  compare_id: null,
  created_at: "2026-11-24T10:00:00.000Z",
  finished_at: null,
};
let server: FakeServer | undefined;

beforeEach(() => resetApiClient());
afterEach(() => server?.restore());

function renderPanel() {
  renderWithProviders(
    <QueryClientProvider client={createQueryClient()}>
      <ReplayPanel canSwitch={false} />
    </QueryClientProvider>,
  );
}

describe("the replay form", () => {
  it("when no projection can be chosen, then says one is required and starts nothing", async () => {
    server = fakeServer({ "GET /audit/replays": { body: { data: { projections: [], runs: [] } } } });
    renderPanel();
    await waitFor(() => expect(server?.calls).toContain("GET /audit/replays"));
    fireEvent.click(screen.getByRole("button", { name: "Replay and compare" }));
    expect(await screen.findByText("Required")).toBeInTheDocument();
    expect(screen.getByLabelText("Projection")).toHaveAttribute("aria-invalid", "true");
    expect(server.calls).not.toContain("POST /audit/replays");
  });

  it("starts with the first projection in service, and replays the one chosen", async () => {
    server = fakeServer({
      "GET /audit/replays": { body: { data: { projections: ["balances", "bookings"], runs: [] } } },
      "POST /audit/replays": { body: { data: run } },
      [`GET /audit/replays/${RUN_ID}`]: { body: { data: run } },
    });
    renderPanel();
    await waitFor(() => expect(screen.getByLabelText("Projection")).toHaveValue("balances"));
    fireEvent.change(screen.getByLabelText("Projection"), { target: { value: "bookings" } });
    fireEvent.click(screen.getByRole("button", { name: "Replay and compare" }));
    await waitFor(() => expect(server?.bodies["POST /audit/replays"]).toEqual([{ projection: "bookings" }]));
  });
});
