import { Badge, Code, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { SchemaNode } from "../api/openapi.ts";

/** Deeper than any contract nests; a guard against a self-referencing schema. */
const MAX_DEPTH = 10;

const listStyle = { margin: 0, paddingInlineStart: 18 } as const;

const isNull = (node: SchemaNode) => node.type === "null";

/** A nullable field comes from zod as anyOf [its schema, null]: shown as the schema, marked nullable. */
function withoutNull(node: SchemaNode): { node: SchemaNode; nullable: boolean } {
  const variants = node.anyOf ?? node.oneOf;
  if (!variants?.some(isNull)) return { node, nullable: false };
  const rest = variants.filter((v) => !isNull(v));
  return rest.length === 1 && rest[0]
    ? { node: rest[0], nullable: true }
    : { node: { ...node, anyOf: rest, oneOf: undefined }, nullable: true };
}

/** One line of constraints: the values an enum allows, lengths, ranges, a pattern or a format. */
function constraints(node: SchemaNode): string[] {
  const facts: string[] = [];
  if (node.enum) facts.push(node.enum.map((v) => JSON.stringify(v)).join(" | "));
  if (node.const !== undefined) facts.push(`= ${JSON.stringify(node.const)}`);
  if (node.format) facts.push(node.format);
  if (node.pattern) facts.push(`/${node.pattern}/`);
  if (node.minLength !== undefined || node.maxLength !== undefined)
    facts.push(`${node.minLength ?? 0}..${node.maxLength ?? "∞"} chars`);
  if (node.minimum !== undefined || node.maximum !== undefined)
    facts.push(`${node.minimum ?? "-∞"}..${node.maximum ?? "∞"}`);
  if (node.minItems !== undefined || node.maxItems !== undefined)
    facts.push(`${node.minItems ?? 0}..${node.maxItems ?? "∞"} items`);
  if (node.default !== undefined) facts.push(`default ${JSON.stringify(node.default)}`);
  return facts;
}

function typeOf(node: SchemaNode): string {
  if (node.$ref) return node.$ref === "#" ? "(recursive)" : node.$ref.replace(/^#\/\$defs\//, "");
  if (Array.isArray(node.type)) return node.type.join(" | ");
  if (node.type) return node.type;
  if (node.enum) return "enum";
  if (node.const !== undefined) return typeof node.const;
  return "any";
}

/** The fields of an object, each with its type, whether it is required, its constraints, and what it holds. */
export function SchemaView({ schema, depth = 0 }: { schema: SchemaNode; depth?: number }): ReactNode {
  const { t } = useTranslation("audit");
  const { node } = withoutNull(schema);
  if (depth > MAX_DEPTH) return <Text fz="xs">…</Text>;
  const variants = node.anyOf ?? node.oneOf;
  if (variants)
    return (
      <div>
        <Text fz="xs" c="dimmed">
          {t("docs.one_of")}
        </Text>
        <ol style={listStyle}>
          {variants.map((v, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: variants have no identity but their place
            <li key={i}>
              <SchemaView schema={v} depth={depth + 1} />
            </li>
          ))}
        </ol>
      </div>
    );
  if (node.allOf)
    return (
      <div>
        {node.allOf.map((part, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts have no identity but their place
          <SchemaView key={i} schema={part} depth={depth + 1} />
        ))}
      </div>
    );
  if (node.type === "array" && node.items)
    return (
      <div>
        <Text fz="xs" c="dimmed">
          {t("docs.array_of")} {constraints(node).join(", ")}
        </Text>
        <SchemaView schema={node.items} depth={depth + 1} />
      </div>
    );
  if (node.properties) {
    const required = new Set(node.required ?? []);
    return (
      <ul style={listStyle}>
        {Object.entries(node.properties).map(([name, property]) => {
          const { node: field, nullable } = withoutNull(property);
          const nested =
            field.properties || field.anyOf || field.oneOf || (field.type === "array" && field.items);
          return (
            <li key={name}>
              <Code>{name}</Code>{" "}
              <Text span fz="xs" c="dimmed">
                {typeOf(field)}
                {nullable ? ` | null` : ""}
              </Text>{" "}
              {required.has(name) && (
                <Badge size="xs" variant="light" color="red">
                  {t("docs.required")}
                </Badge>
              )}{" "}
              {constraints(field).length > 0 && (
                <Text span fz="xs">
                  {constraints(field).join(", ")}
                </Text>
              )}
              {field.description && (
                <Text fz="xs" c="dimmed">
                  {field.description}
                </Text>
              )}
              {nested && <SchemaView schema={field} depth={depth + 1} />}
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    <Text fz="xs">
      <Text span fz="xs" c="dimmed">
        {typeOf(node)}
      </Text>{" "}
      {constraints(node).join(", ")}
    </Text>
  );
}
