import { createFileRoute } from "@tanstack/react-router";
import { ApiReference } from "../features/api-docs/components/api-reference.tsx";

/** The public API's reference, for integrators holding an API token: no sign-in needed to read it. */
export const Route = createFileRoute("/docs")({
  component: ApiReference,
});
