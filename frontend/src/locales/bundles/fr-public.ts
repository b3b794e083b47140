// The French public catalogues as one chunk: the namespaces of PUBLIC_NAMESPACES (resources.ts).
export default import.meta.glob(
  [
    "../fr/common.json",
    "../fr/account.json",
    "../fr/language.json",
    "../fr/notifications.json",
    "../fr/sign-in.json",
    "../fr/sign-in-form.json",
  ],
  { eager: true, import: "default" },
);
