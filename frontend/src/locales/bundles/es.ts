// The Spanish start-up catalogues as one chunk: every namespace file except the on-demand ones (resources.ts).
export default import.meta.glob(["../es/*.json", "!../es/legal.json", "!../es/errors.json"], {
  eager: true,
  import: "default",
});
