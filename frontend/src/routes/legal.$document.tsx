import { createFileRoute, notFound } from "@tanstack/react-router";
import { LegalDocumentPage } from "../features/onboarding/components/legal-document-page.tsx";
import { LEGAL_DOCUMENTS, type LegalDocument } from "../features/onboarding/components/legal-links.ts";

const isLegalDocument = (value: string): value is LegalDocument =>
  (LEGAL_DOCUMENTS as readonly string[]).includes(value);

export const Route = createFileRoute("/legal/$document")({
  beforeLoad: ({ params }) => {
    if (!isLegalDocument(params.document)) throw notFound();
  },
  component: LegalRoute,
});

function LegalRoute() {
  const { document } = Route.useParams();
  return isLegalDocument(document) ? <LegalDocumentPage document={document} /> : null;
}
