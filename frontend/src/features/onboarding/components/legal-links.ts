/** The documents a user accepts during onboarding, each at /legal/<document>. */
export const LEGAL_DOCUMENTS = [
  "privacy-policy",
  "website-terms",
  "extension-terms",
  "communication-policy",
] as const;
export type LegalDocument = (typeof LEGAL_DOCUMENTS)[number];
