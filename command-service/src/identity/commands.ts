import type { EventMetadata } from "@skyward/contracts/metadata";
import type { Position } from "@skyward/contracts/position";
import { runCommand } from "@skyward/infra/event-store/command";
import type { EventStore } from "@skyward/infra/event-store/event-store";
import { positionOf } from "../command-answer.ts";
import {
  type AccountCommand,
  activeUser,
  decideAccount,
  decideEmailChange,
  type EmailChangeCommand,
} from "./decide.ts";
import { type ActiveUser, emailStream, evolveEmailClaim, evolveUser, noUser, userStream } from "./user.ts";

export interface AccountOutcome {
  user: ActiveUser;
  /** Feed position of the last event written; null when the command changed nothing. */
  position: Position | null;
}

/** Read the user's stream → decide → append with the version read (retried on a concurrent writer). */
export async function runAccountCommand(
  store: EventStore,
  userId: string,
  command: AccountCommand,
  metadata: EventMetadata,
): Promise<AccountOutcome> {
  const { result, append } = await runCommand(store, async (ctx) => {
    const { state, version } = await ctx.load(userStream(userId), evolveUser, noUser);
    const events = decideAccount(command, state);
    return {
      appends: [
        {
          streamId: userStream(userId),
          expected: version,
          events: events.map((e) => ({ ...e, metadata })),
        },
      ],
      result: activeUser(events.reduce(evolveUser, state)),
    };
  });
  return { user: result, position: positionOf(append) };
}

/**
 * The e-mail change and both address claims in one atomic append, so two users never hold one address. Streams
 * with nothing to write still have their version checked: the decision stands only if no claim moved meanwhile.
 */
export async function runEmailChange(
  store: EventStore,
  userId: string,
  command: EmailChangeCommand,
  metadata: EventMetadata,
): Promise<AccountOutcome> {
  const { result, append } = await runCommand(store, async (ctx) => {
    const user = await ctx.load(userStream(userId), evolveUser, noUser);
    const claim = await ctx.load(emailStream(command.newEmail), evolveEmailClaim, { user_id: null });
    const current = activeUser(user.state);
    const events = decideEmailChange(command, current, claim.state);
    const previousClaim = await ctx.load(emailStream(current.email), evolveEmailClaim, { user_id: null });
    const withMetadata = <E extends object>(list: E[]) => list.map((e) => ({ ...e, metadata }));
    return {
      appends: [
        { streamId: userStream(userId), expected: user.version, events: withMetadata(events.user) },
        {
          streamId: emailStream(command.newEmail),
          expected: claim.version,
          events: withMetadata(events.newAddress),
        },
        {
          streamId: emailStream(current.email),
          expected: previousClaim.version,
          events: withMetadata(events.previousAddress),
        },
      ],
      result: activeUser(events.user.reduce(evolveUser, user.state)),
    };
  });
  return { user: result, position: positionOf(append) };
}
