// The Polish start-up catalogues as one chunk: every namespace file except the on-demand ones (resources.ts).
export default import.meta.glob(["../pl/*.json", "!../pl/legal.json", "!../pl/errors.json"], {
  eager: true,
  import: "default",
});
