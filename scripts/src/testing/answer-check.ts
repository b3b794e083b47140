import { ErrorEnvelope } from "@skyward/contracts/errors";
import { jsonSchema, openApiDocument } from "@skyward/contracts/openapi";
import { unlistedRoutes } from "@skyward/contracts/openapi/unlisted";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import type { RequestHandler } from "express";

/*
 * Every JSON answer the app gives under test is checked against the answer schema its route names in `contracts`
 * (through the OpenAPI document generated from them, so the check reads what integrators read). A `z.object` in a
 * contract describes its fields and no others: an answer with a field its schema does not name, without one it
 * requires, or of another type, is replaced by a 500 `answer_not_in_contract` naming the route and the difference,
 * so the test that made the call fails where it made it. An error status the route does not document must still be
 * the `{errors: [...]}` envelope. Files (PDF, spreadsheets) are not JSON and are not checked here.
 */

type JsonSchema = Record<string, unknown>;
interface DocumentedOperation {
  responses: Record<string, { content: Record<string, { schema?: JsonSchema }> }>;
}
interface Template {
  method: string;
  path: string;
  pattern: RegExp;
  /** Literal segments win over parameters: POST /bookings/issue is not POST /bookings/{locator}. */
  params: number;
  operation: DocumentedOperation;
}

/** What the check found wrong, newest last (tests may read it; each one also answered a 500). */
export interface AnswerViolation {
  route: string;
  status: number;
  problem: string;
}

export interface AnswerCheck {
  middleware: RequestHandler;
  violations: AnswerViolation[];
}

/** Every route's answers: the documented ones from the OpenAPI document, the others from contracts' own table. */
function answeredRoutes(): { method: string; path: string; operation: DocumentedOperation }[] {
  const document = openApiDocument() as { paths: Record<string, Record<string, DocumentedOperation>> };
  const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method, path, operation })),
  );
  const unlisted = unlistedRoutes.map(({ method, path, responses }) => ({
    method,
    path,
    operation: {
      responses: Object.fromEntries(
        Object.entries(responses).map(([status, schema]) => [
          status,
          { content: { "application/json": { schema: jsonSchema(schema, "output") } } },
        ]),
      ),
    },
  }));
  return [...documented, ...unlisted];
}

/** The middleware that checks every JSON answer against its route's answer schema (installed by startTestApp). */
export function answerCheck(): AnswerCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const templates: Template[] = answeredRoutes()
    .map(({ method, path, operation }) => ({
      method: method.toUpperCase(),
      path,
      pattern: new RegExp(`^${path.replace(/\{\w+\}/g, "[^/]+")}/?$`),
      params: (path.match(/\{/g) ?? []).length,
      operation,
    }))
    .sort((a, b) => a.params - b.params);
  const envelope = jsonSchema(ErrorEnvelope, "output");
  const compiled = new Map<JsonSchema, ValidateFunction>();
  const validator = (schema: JsonSchema) => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(schema);
      compiled.set(schema, validate);
    }
    return validate;
  };
  const violations: AnswerViolation[] = [];

  /** Why `body` is not what the route documents for `status`, or null when it is. */
  const problemOf = (method: string, path: string, status: number, body: unknown) => {
    const template = templates.find((t) => t.method === method && t.pattern.test(path));
    // A route with no answer schema at all (the probes, the document itself) answers its errors in the envelope.
    if (!template) return status >= 400 ? mismatch(envelope, body) : null;
    const documented = template.operation.responses[String(status)];
    if (!documented)
      return status >= 400 ? mismatch(envelope, body) : `status ${status} is not documented for the route`;
    const schema = documented.content["application/json"]?.schema;
    if (!schema) return `JSON is not documented for status ${status}`;
    return mismatch(schema, body);
  };
  const mismatch = (schema: JsonSchema, body: unknown) => {
    const validate = validator(schema);
    return validate(body) ? null : ajv.errorsText(validate.errors, { separator: "; ", dataVar: "answer" });
  };

  const middleware: RequestHandler = (req, res, next) => {
    const json = res.json.bind(res);
    // The whole path: inside a router mounted under a prefix, req.path is the part after it.
    const path = new URL(req.originalUrl, "http://answer.check").pathname;
    res.json = (body?: unknown) => {
      // As the client reads it: dates as text, undefined fields left out.
      const sent = body === undefined ? undefined : JSON.parse(JSON.stringify(body));
      const problem = problemOf(req.method, path, res.statusCode, sent);
      if (problem === null) return json(body);
      const template = templates.find((t) => t.method === req.method && t.pattern.test(path));
      const route = `${req.method} ${template?.path ?? path}`;
      violations.push({ route, status: res.statusCode, problem });
      const detail = `${route} answered ${res.statusCode} with what its contract does not describe: ${problem}`;
      // Also on stderr: a test that reads only the status still shows why.
      process.stderr.write(`answer-check: ${detail}\n`);
      res.status(500);
      return json({
        errors: [{ status: "500", code: "answer_not_in_contract", title: "Answer not in contract", detail }],
      });
    };
    next();
  };
  return { middleware, violations };
}
