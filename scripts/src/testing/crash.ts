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

async function poll(found: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await found()); i++) await new Promise((r) => setTimeout(r, 25));
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
    const running = call(client).catch((error: unknown) => error);
    let operationId: string | undefined;
    await poll(async () => {
      [operationId] = await openOperations(this.t, locator);
      return operationId !== undefined;
    });
    expect(operationId).toBeDefined();
    await poll(async () => {
      const { rows } = await this.t.db.pool.query(
        "SELECT 1 FROM sandbox.operations WHERE operation_id = $1",
        [operationId],
      );
      return rows.length > 0;
    });
    process.kill(this.child.pid, "SIGKILL");
    await running;
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
