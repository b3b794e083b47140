import { ErrorEnvelope } from "@skyward/contracts/errors";
import { documentedRoutes, jsonSchema, routeResponses } from "@skyward/contracts/openapi";
import { unlistedRoutes } from "@skyward/contracts/openapi/unlisted";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import type { RequestHandler } from "express";

/*
 * Every JSON answer the app gives under test is checked against the answer schema its route names in `contracts`
 * (as the OpenAPI document gives it to integrators: the JSON Schema zod exports for it, and every secured route's
 * 403 and 429). A `z.object` in a contract describes its fields and no others: an answer with a field its schema does
 * not name, without one it requires, or of another type, is replaced by a 500 `answer_not_in_contract` naming the
 * route and the difference, so the test that made the call fails where it made it. An error status the route does
 * not document must still be the `{errors: [...]}` envelope. Files (PDF, spreadsheets) are not JSON and are not
 * checked here. A schema is exported and compiled when an answer first needs it, once per zod schema: every test file
 * builds its own check, and building all 715 answers' validators up front cost each file 3-4 s of CPU.
 */

/** A contract's zod schema (the contracts' own zod: this workspace resolves another). */
type Schema = Parameters<typeof jsonSchema>[0];

interface Template {
  method: string;
  path: string;
  pattern: RegExp;
  /** Literal segments win over parameters: POST /bookings/issue is not POST /bookings/{locator}. */
  params: number;
  /** The JSON answer by status; null: the status answers a file. */
  responses: Record<string, Schema | null>;
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

/** Every route's answers: the documented ones as the OpenAPI document lists them, the others from contracts' table. */
function answeredRoutes(): { method: string; path: string; responses: Template["responses"] }[] {
  const documented = documentedRoutes.map((route) => ({
    method: route.method,
    path: route.path,
    responses: Object.fromEntries(
      Object.entries(routeResponses(route)).map(([status, r]) => [status, r.schema ?? null]),
    ),
  }));
  return [...documented, ...unlistedRoutes];
}

/** The middleware that checks every JSON answer against its route's answer schema (installed by startTestApp). */
export function answerCheck(): AnswerCheck {
  // Unoptimized code: a validator checks a few answers per test file, and compiling costs more than it saves. All 715
  // answer schemas compiled in 0.9-1.5 s of CPU so, against 2.5-3.7 s optimized (three rounds alternated, one process).
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateFormats: false,
    code: { optimize: false },
  });
  const templates: Template[] = answeredRoutes()
    .map(({ method, path, responses }) => ({
      method: method.toUpperCase(),
      path,
      pattern: new RegExp(`^${path.replace(/\{\w+\}/g, "[^/]+")}/?$`),
      params: (path.match(/\{/g) ?? []).length,
      responses,
    }))
    .sort((a, b) => a.params - b.params);
  const compiled = new Map<Schema, ValidateFunction>();
  const validator = (schema: Schema) => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(jsonSchema(schema, "output"));
      compiled.set(schema, validate);
    }
    return validate;
  };
  const violations: AnswerViolation[] = [];

  /** Why `body` is not what the route documents for `status`, or null when it is. */
  const problemOf = (method: string, path: string, status: number, body: unknown) => {
    const template = templates.find((t) => t.method === method && t.pattern.test(path));
    // A route with no answer schema at all (the probes, the document itself) answers its errors in the envelope.
    if (!template) return status >= 400 ? mismatch(ErrorEnvelope, body) : null;
    const schema = template.responses[String(status)];
    if (schema === undefined)
      return status >= 400
        ? mismatch(ErrorEnvelope, body)
        : `status ${status} is not documented for the route`;
    if (schema === null) return `JSON is not documented for status ${status}`;
    return mismatch(schema, body);
  };
  const mismatch = (schema: Schema, body: unknown) => {
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
