// The Polish public catalogues as one chunk: the namespaces of PUBLIC_NAMESPACES (resources.ts).
export default import.meta.glob(
  [
    "../pl/common.json",
    "../pl/account.json",
    "../pl/language.json",
    "../pl/notifications.json",
    "../pl/sign-in.json",
    "../pl/sign-in-form.json",
  ],
  { eager: true, import: "default" },
);
