import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

/** A JSON Schema (2020-12) node as zod's export writes it: only what the reference shows. */
export interface SchemaNode {
  type?: string | string[];
  description?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  additionalProperties?: boolean | SchemaNode;
  $ref?: string;
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: SchemaNode;
}

export interface Response {
  description: string;
  headers?: Record<string, { description?: string; schema: SchemaNode }>;
  content?: Record<string, { schema: SchemaNode }>;
}

export interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: SchemaNode }> };
  responses: Record<string, Response>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
}

/** `GET /openapi.json`: the document the server generates from the contracts (the reference renders only it). */
export const openApiQueryOptions = () =>
  queryOptions({
    queryKey: ["openapi"],
    queryFn: async ({ signal }) => (await api.get<OpenApiDocument>("/openapi.json", { signal })).data,
    staleTime: Number.POSITIVE_INFINITY,
  });
