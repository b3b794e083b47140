// The Ukrainian public catalogues as one chunk: the namespaces of PUBLIC_NAMESPACES (resources.ts).
export default import.meta.glob(
  [
    "../ua/common.json",
    "../ua/account.json",
    "../ua/language.json",
    "../ua/notifications.json",
    "../ua/sign-in.json",
    "../ua/sign-in-form.json",
  ],
  { eager: true, import: "default" },
);
