import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import { openApiDocument } from "@/lib/http/openapi";

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: "spindle", components: openApiDocument.components });

/** A real response validates against the OpenAPI document's component schema `name`. */
export function expectSchema(name: string, value: unknown): void {
  const validate = ajv.compile({ $ref: `spindle#/components/schemas/${name}` });
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
}
