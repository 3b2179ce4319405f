import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import { openApiDocument } from "@/lib/http/openapi";

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: "spindle", components: openApiDocument.components });

const compiled = new Map<string, ValidateFunction>();
/** `schema` (a component reference or an inline schema of the document), compiled once. */
function validator(key: string, schema: unknown): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) {
    const rooted = JSON.parse(
      JSON.stringify(schema).replaceAll('"#/components/', '"spindle#/components/'),
    ) as object;
    validate = ajv.compile(rooted);
    compiled.set(key, validate);
  }
  return validate;
}

/** A real response validates against the OpenAPI document's component schema `name`. */
export function expectSchema(name: string, value: unknown): void {
  const validate = validator(name, { $ref: `#/components/schemas/${name}` });
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
}

interface DocumentedResponse {
  readonly content?: Record<string, { readonly schema?: unknown }>;
}
type Operation = { readonly responses: Record<string, DocumentedResponse> };
const paths = openApiDocument.paths as unknown as Record<string, Record<string, Operation>>;

/**
 * [R276] A real answer of the route at `template` is one the document describes: its status
 * is listed for the operation (or covered by its `default`), its content type is one the
 * status lists, and a JSON body validates against that schema — whose objects are closed,
 * so a field the document does not describe fails. Paths no route serves answer the
 * `Error` shape; better-auth's `/api/auth/*` is not Spindle's to describe.
 */
export function expectDocumentedAnswer(
  method: string,
  template: string,
  answer: { readonly status: number; readonly type: string; readonly json: unknown },
): void {
  if (template.startsWith("/api/auth/")) return;
  const where = `${method} ${template} answered ${answer.status}`;
  if (template === "/api/[...rest]") {
    if (method !== "HEAD") expectSchema("Error", answer.json);
    return;
  }
  const operation = paths[template]?.[method.toLowerCase()];
  expect(operation, `${method} ${template} is not documented`).toBeDefined();
  if (!operation) return;
  const status = String(answer.status);
  // `default` stands for the refusals (4xx, 5xx) an operation does not list one by one.
  const response =
    operation.responses[status] ??
    (answer.status >= 400 ? operation.responses["default"] : undefined);
  expect(response, `${where}, a status the document does not list`).toBeDefined();
  if (!response || answer.status === 204 || method === "HEAD") return;
  const type = answer.type.split(";")[0]?.trim() ?? "";
  const content = response.content ?? {};
  const documented = Object.keys(content).find(
    (t) => t === type || (t.endsWith("/*") && type.startsWith(t.slice(0, -1))),
  );
  expect(documented, `${where} as ${type}, a type the document does not list`).toBeDefined();
  if (documented !== "application/json") return;
  const key = `${template} ${method} ${documented} ${answer.status in operation.responses ? status : "default"}`;
  const validate = validator(key, content[documented]?.schema);
  expect(validate(answer.json), `${where}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

/**
 * Where the document holds a schema that is not valid JSON Schema 2020-12 (OpenAPI 3.1's
 * dialect): each component and each parameter's, request's and response's schema.
 */
export function invalidSchemas(): string[] {
  const found: string[] = [];
  const check = (where: string, schema: unknown) => {
    if (!ajv.validateSchema(schema as object)) found.push(`${where}: ${ajv.errorsText()}`);
  };
  const walk = (node: unknown, where: string): void => {
    if (typeof node !== "object" || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "schema") check(where, value);
      else walk(value, `${where}/${key}`);
    }
  };
  walk(openApiDocument.paths, "paths");
  for (const [name, schema] of Object.entries(openApiDocument.components.schemas))
    check(`components/schemas/${name}`, schema);
  return found;
}
