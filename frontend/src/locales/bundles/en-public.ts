// The English public catalogues as one chunk: the namespaces of PUBLIC_NAMESPACES (resources.ts).
export default import.meta.glob(
  [
    "../en/common.json",
    "../en/account.json",
    "../en/language.json",
    "../en/notifications.json",
    "../en/sign-in.json",
    "../en/sign-in-form.json",
  ],
  { eager: true, import: "default" },
);
