// The Spanish public catalogues as one chunk: the namespaces of PUBLIC_NAMESPACES (resources.ts).
export default import.meta.glob(
  [
    "../es/common.json",
    "../es/account.json",
    "../es/language.json",
    "../es/notifications.json",
    "../es/sign-in.json",
    "../es/sign-in-form.json",
  ],
  { eager: true, import: "default" },
);
