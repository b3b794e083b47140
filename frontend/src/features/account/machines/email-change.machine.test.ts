import { describe, expect, it } from "@jest/globals";
import { createActor, fromPromise, waitFor } from "xstate";
import { ApiError } from "../../../lib/api-client.ts";
import { emailChangeMachine } from "./email-change.machine.ts";

function startEmailChange(confirmReplies: (Error | undefined)[] = []) {
  const calls: string[] = [];
  const machine = emailChangeMachine.provide({
    actors: {
      requestCode: fromPromise<unknown, { email: string }>(async ({ input }) => {
        calls.push(`code to ${input.email}`);
        return {};
      }),
      confirm: fromPromise<unknown, { email: string; code: string }>(async ({ input }) => {
        calls.push(`confirm ${input.email} ${input.code}`);
        const reply = confirmReplies.shift();
        if (reply) throw reply;
        return {};
      }),
    },
  });
  return { actor: createActor(machine).start(), calls };
}

describe("e-mail change machine", () => {
  it("sends a code to the new address and changes it once the code is confirmed", async () => {
    const wrong = new ApiError(401, [{ status: "401", code: "code_wrong", title: "Sign-in failed" }]);
    const { actor, calls } = startEmailChange([wrong]);
    actor.send({ type: "change.start" });
    actor.send({ type: "email.submit", email: " taras@dnipro.test " });
    await waitFor(actor, (snapshot) => snapshot.matches({ confirming: "entering" }));
    expect(actor.getSnapshot().context).toMatchObject({ newEmail: "taras@dnipro.test", codesSent: 1 });

    actor.send({ type: "code.submit", code: "000000" });
    await waitFor(actor, (snapshot) => snapshot.matches({ confirming: "entering" }));
    expect(actor.getSnapshot().context).toMatchObject({ refusal: "code_wrong", refusals: 1 });

    actor.send({ type: "code.resend" });
    await waitFor(actor, (snapshot) => snapshot.matches({ confirming: "entering" }));
    expect(actor.getSnapshot().context).toMatchObject({ refusal: null, codesSent: 2 });

    actor.send({ type: "code.submit", code: "123456" });
    await waitFor(actor, (snapshot) => snapshot.matches("changed"));
    expect(calls).toEqual([
      "code to taras@dnipro.test",
      "confirm taras@dnipro.test 000000",
      "code to taras@dnipro.test",
      "confirm taras@dnipro.test 123456",
    ]);
  });

  it("can be cancelled while waiting for the code, and starts afresh", async () => {
    const { actor } = startEmailChange();
    actor.send({ type: "change.start" });
    actor.send({ type: "email.submit", email: "taras@dnipro.test" });
    await waitFor(actor, (snapshot) => snapshot.matches("confirming"));
    actor.send({ type: "change.cancel" });
    expect(actor.getSnapshot().value).toBe("idle");
    actor.send({ type: "change.start" });
    expect(actor.getSnapshot().context).toMatchObject({ newEmail: "", codesSent: 0 });
  });
});
