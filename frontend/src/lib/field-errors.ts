import { ApiError } from "./api-client.ts";

/**
 * The fields a 400/422 names (`source.pointer` "/account/phone" → "phone"), with the server's words, so a form can
 * mark the field as well as show the notification. Beside its field the detail drops the field's name, which the
 * server puts first for the notification ("account.phone must be ..." → "must be ...").
 */
export function fieldErrors(error: unknown, prefix = ""): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const fields: Record<string, string> = {};
  for (const item of error.errors) {
    const pointer = item.source?.pointer;
    if (!pointer?.startsWith(`${prefix}/`)) continue;
    const field = pointer.slice(prefix.length + 1);
    if (!field || field.includes("/")) continue;
    const named = `${pointer.slice(1).replaceAll("/", ".")} `;
    const detail = item.detail ?? item.title;
    fields[field] ??= detail.startsWith(named) ? detail.slice(named.length) : detail;
  }
  return fields;
}
