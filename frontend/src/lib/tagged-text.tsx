import { Fragment, type ReactNode } from "react";

/**
 * A translated sentence with `<name>…</name>` parts rendered by `parts[name]` (links inside a sentence), without
 * react-i18next's `Trans` and its HTML parser on the first page. Unknown or unclosed tags stay as text.
 */
export function taggedText(
  text: string,
  parts: Record<string, (children: string) => ReactNode>,
): ReactNode[] {
  const nodes: ReactNode[] = [];
  const tag = /<([a-z_]+)>(.*?)<\/\1>/g;
  let last = 0;
  for (let match = tag.exec(text); match; match = tag.exec(text)) {
    const [whole, name = "", inner = ""] = match;
    const render = parts[name];
    if (!render) continue;
    if (match.index > last) nodes.push(text.slice(last, match.index));
    nodes.push(<Fragment key={`${name}-${match.index}`}>{render(inner)}</Fragment>);
    last = match.index + whole.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}
