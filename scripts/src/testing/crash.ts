import { expect } from "@jest/globals";
import { reconcileOperations } from "@skyward/command-service/bookings/reconcile";
import { type ChildCommandProcess, startChildCommandProcess } from "./child-command-process.ts";
import { HttpClient } from "./http-client.ts";
import type { TestApp } from "./test-app.ts";

/** Supplier operations of a booking started and not yet ended, from its events. */
export async function openOperations(t: TestApp, locator: string): Promise<string[]> {
  const events = await t.events(`booking-${locator}`);
  const started = events.filter((e) => e.type.endsWith("Started")).map((e) => e.data.operation_id as string);
  const ended = new Set(
    events.filter((e) => !e.type.endsWith("Started")).map((e) => e.data.operation_id as string | undefined),
  );
  return started.filter((id) => !ended.has(id));
}

/** Polls every 25 ms for up to `seconds` (5); answers whether `found` came true. */
async function poll(found: () => Promise<boolean>, seconds = 5): Promise<boolean> {
  for (let i = 0; i < seconds * 40; i++) {
    if (await found()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

/**
 * A command process to kill (SIGKILL) between the airline's answer and our record: the crash every supplier
 * operation must survive. It is restarted after each kill; the test's own app then reconciles as the job would.
 */
export class CrashingCommandProcess {
  private constructor(
    private readonly t: TestApp,
    private readonly env: Record<string, string>,
    private child: ChildCommandProcess,
  ) {}

  static async start(t: TestApp, env: Record<string, string>): Promise<CrashingCommandProcess> {
    return new CrashingCommandProcess(t, env, await startChildCommandProcess(t.db.url, env));
  }

  /** Runs `call` in the child with `agent`'s session, kills the child once the airline has acted, and reconciles. */
  async killAfterAirline(
    agent: HttpClient,
    locator: string,
    call: (client: HttpClient) => Promise<unknown>,
  ): Promise<Awaited<ReturnType<typeof reconcileOperations>>> {
    const client = new HttpClient(this.child.url);
    client.setCookie("skyward_session", agent.cookie("skyward_session") ?? "");
    // What the call answered, should it answer before its operation is seen started (a refusal, a failure).
    let answered: unknown;
    const running = call(client).then(
      (answer) => {
        answered = answer;
      },
      (error: unknown) => {
        answered = error;
      },
    );
    let operationId: string | undefined;
    // The operation starts before the airline is called, so waiting longer for it (a whole CI run on a loaded machine
    // once saw none within 5 s) changes nothing of the scenario, which the kill's timing below still checks.
    await poll(async () => {
      [operationId] = await openOperations(this.t, locator);
      return operationId !== undefined || answered !== undefined;
    }, 20);
    expect({ started: operationId !== undefined, answered }).toEqual({ started: true, answered: undefined });
    // How long ago the airline acted when the kill is sent: the scenario holds only if that is well inside its slow
    // answer (8 s). A machine stalled that long says so here, not as an operation closed without reconciliation.
    let actedMsAgo: number | undefined;
    await poll(async () => {
      const { rows } = await this.t.db.pool.query<{ ago: number }>(
        `SELECT (extract(epoch FROM clock_timestamp() - recorded_at) * 1000)::int AS ago
           FROM sandbox.operations WHERE operation_id = $1`,
        [operationId],
      );
      actedMsAgo = rows[0]?.ago;
      return actedMsAgo !== undefined;
    });
    process.kill(this.child.pid, "SIGKILL");
    await running;
    expect({
      acted: actedMsAgo !== undefined,
      killedInTime: (actedMsAgo ?? 0) < 6_000 || actedMsAgo,
    }).toEqual({
      acted: true,
      killedInTime: true,
    });
    await this.child.stop();
    this.child = await startChildCommandProcess(this.t.db.url, this.env);
    expect(await openOperations(this.t, locator)).toHaveLength(1);
    await poll(async () => {
      const { rows } = await this.t.db.pool.query(
        "SELECT 1 FROM read.bookings WHERE locator = $1 AND operation_id IS NOT NULL",
        [locator],
      );
      return rows.length > 0;
    });
    return reconcileOperations(this.t.app.commandDeps, { staleAfterMs: 0 });
  }

  stop(): Promise<void> {
    return this.child.stop();
  }
}
