// The Ukrainian start-up catalogues as one chunk: every namespace file except the on-demand ones (resources.ts).
export default import.meta.glob(["../ua/*.json", "!../ua/legal.json", "!../ua/errors.json"], {
  eager: true,
  import: "default",
});
