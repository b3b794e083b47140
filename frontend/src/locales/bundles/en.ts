// The English start-up catalogues as one chunk: every namespace file except the on-demand ones (resources.ts).
export default import.meta.glob(["../en/*.json", "!../en/legal.json", "!../en/errors.json"], {
  eager: true,
  import: "default",
});
