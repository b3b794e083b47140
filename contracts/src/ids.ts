import { z } from "zod";

export const Uuid = z.uuid();
export const Email = z.email().max(254);
export const Language = z.enum(["en", "ua", "pl", "fr", "es"]);
export type Language = z.infer<typeof Language>;
