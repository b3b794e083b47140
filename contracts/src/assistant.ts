import { z } from "zod";
import { Language } from "./ids.ts";

/** HTTP shapes of the AI admin assistant: `POST /admin_panel/ask` and `POST /admin_panel/execute` (issue 13). */

export const AskRequest = z
  .object({
    /** What the user typed: data, never instructions to the system. */
    text: z.string().trim().min(1).max(1000),
    /** The language the user writes in; the parser tries every language anyway. */
    locale: Language.optional(),
  })
  .strict();
export type AskRequest = z.infer<typeof AskRequest>;

/** A value before and after a step (money, a switch, markups), as data the screen formats. */
export const Change = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });
export type Change = z.infer<typeof Change>;

/** A human-readable line: an English text, and a code + parameters each language renders. */
export const Preview = z.object({
  code: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  text: z.string(),
});
export type Preview = z.infer<typeof Preview>;

export const PlanStep = z.object({
  index: z.number().int(),
  command: z.string(),
  /** The command's arguments after names were resolved to ids (what the ordinary route receives). */
  args: z.record(z.string(), z.unknown()),
  preview: Preview,
  changes: z.array(Change),
  moves_money: z.boolean(),
});
export type PlanStep = z.infer<typeof PlanStep>;

export const Plan = z.object({
  id: z.uuid(),
  expires_at: z.string(),
  steps: z.array(PlanStep),
  /** True when a step moves money: execute then needs `confirm_money: true`. */
  needs_money_confirmation: z.boolean(),
  /**
   * The steps whose amount is above the configured limit (`ASSISTANT_RETYPE_ABOVE`): execute needs that amount
   * typed again (`confirm_amounts`), so a plan built from a misread or injected number never runs on one click.
   */
  retype_amounts: z.array(z.object({ step: z.number().int(), currency: z.string() })).optional(),
  provider: z.string(),
});
export type Plan = z.infer<typeof Plan>;

/** An entity a question back offers to choose from. */
export const Candidate = z.object({
  kind: z.string(),
  id: z.string(),
  name: z.string(),
  detail: z.string().nullable(),
});
export type Candidate = z.infer<typeof Candidate>;

const Answer = z.object({ question: z.string(), preview: Preview, data: z.unknown() });

export const AskResponse = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("plan"),
    plan: Plan,
    /** The questions asked in the same request as the plan's commands, answered beside it (nothing is dropped). */
    answers: z.array(Answer).optional(),
  }),
  z.object({ kind: z.literal("answer"), answer: Answer }),
  /** A missing detail (an amount, an e-mail): the user answers, nothing is guessed. */
  z.object({
    kind: z.literal("question"),
    question: z.object({ code: z.string(), preview: Preview, candidates: z.array(Candidate) }),
  }),
  /**
   * Which one, nothing guessed (issue 25): a name not found (the nearest matches as candidates), two or more matches
   * (the candidates), an entity the request did not name, or a part of the request no step covers (`unused`: the
   * words not read).
   */
  z.object({
    kind: z.literal("clarify"),
    clarify: z.object({
      code: z.string(),
      preview: Preview,
      candidates: z.array(Candidate),
      unused: z.array(z.string()),
    }),
  }),
  /** Refused, with the reason: outside the caller's scope, a command their role may not run, instructions in data. */
  z.object({ kind: z.literal("refuse"), refusal: z.object({ code: z.string(), preview: Preview }) }),
  z.object({ kind: z.literal("not_understood"), preview: Preview }),
]);
export type AskResponse = z.infer<typeof AskResponse>;

export const ExecuteRequest = z
  .object({
    plan_id: z.string().max(100),
    /** The steps the user confirmed (indexes); all of them when absent. */
    steps: z.array(z.number().int().min(0).max(99)).max(100).optional(),
    /** Explicit consent to the money-moving steps among them. */
    confirm_money: z.boolean().optional(),
    /** The amounts typed again (minor units, as the plan shows them) for the steps the plan lists in `retype_amounts`. */
    confirm_amounts: z
      .array(z.object({ step: z.number().int().min(0).max(99), amount: z.number().int() }).strict())
      .max(100)
      .optional(),
  })
  .strict();
export type ExecuteRequest = z.infer<typeof ExecuteRequest>;

export const StepLink = z.object({ kind: z.string(), id: z.string(), href: z.string() });
export type StepLink = z.infer<typeof StepLink>;

export const StepResult = z.object({
  index: z.number().int(),
  command: z.string(),
  status: z.enum(["done", "failed", "skipped"]),
  links: z.array(StepLink),
  position: z.string().nullable(),
  error: z.object({ status: z.number().int(), code: z.string().nullable(), detail: z.string() }).nullable(),
});
export type StepResult = z.infer<typeof StepResult>;

export const ExecuteResponse = z.object({
  plan_id: z.string(),
  status: z.enum(["executed", "failed"]),
  results: z.array(StepResult),
  /** The latest position the plan's steps wrote (null when none did): reads after the plan wait for it. */
  position: z.string().nullable(),
});
export type ExecuteResponse = z.infer<typeof ExecuteResponse>;
