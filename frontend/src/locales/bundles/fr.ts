// The French start-up catalogues as one chunk: every namespace file except the on-demand ones (resources.ts).
export default import.meta.glob(["../fr/*.json", "!../fr/legal.json", "!../fr/errors.json"], {
  eager: true,
  import: "default",
});
