import { z } from "zod";
import { TextSearchRequest } from "./text-search.ts";

/** The search line as typed, held to TextSearchRequest's text (trimmed, 1 to 500 characters); messages are keys. */
export const TextSearchLineForm = z.object({
  text: z
    .string()
    .trim()
    .min(1, { error: "required", abort: true })
    .refine((text) => TextSearchRequest.shape.text.safeParse(text).success, { error: "too_long" }),
});
export type TextSearchLineValues = z.input<typeof TextSearchLineForm>;
