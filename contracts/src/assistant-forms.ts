import { z } from "zod";
import { AskRequest } from "./assistant.ts";

/** The assistant's request box, held to AskRequest's text (trimmed, 1 to 1000 characters); messages are catalogue keys. */
export const AskForm = z.object({
  text: z
    .string()
    .trim()
    .min(1, { error: "required", abort: true })
    .refine((text) => AskRequest.shape.text.safeParse(text).success, { error: "too_long" }),
});
export type AskFormValues = z.input<typeof AskForm>;
