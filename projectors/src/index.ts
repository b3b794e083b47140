import type { Projection } from "@skyward/infra/projections/projection";
import { directory } from "./directory/directory.ts";

/** Every projection the product runs. */
export const projections: readonly Projection[] = [directory];
