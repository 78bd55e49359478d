// Checks answers against the OpenAPI document the server publishes (GET /openapi.json), with
// ajv: the status must be one the document lists for the path, and the body must match the
// schema it gives for that status.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import { openApiDocument } from '../../src/contract/openapi';

interface MediaType {
  schema?: { $ref?: string };
}
interface ResponseSpec {
  content?: Record<string, MediaType>;
}
interface PathSpec {
  get: { responses: Record<string, ResponseSpec> };
}

export class OpenApiChecker {
  readonly document = openApiDocument() as { paths: Record<string, PathSpec> };
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    this.ajv.addSchema(this.document, 'openapi.json');
  }

  /** A validator for a `#/components/schemas/...` reference. */
  validator(ref: string): ValidateFunction {
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.getSchema(`openapi.json${ref}`);
      if (!validate) throw new Error(`no schema at ${ref}`);
      this.compiled.set(ref, validate);
    }
    return validate;
  }

  /** Problems with one answer to GET `path` (e.g. `/domain/query`); [] when it conforms. */
  check(path: string, status: number, contentType: string, body: unknown): string[] {
    const spec = this.document.paths[path]?.get;
    if (!spec) return [`${path} is not in the document`];
    const response = spec.responses[String(status)];
    if (!response) return [`${path} does not document status ${status}`];
    const mediaType = contentType.split(';')[0].trim();
    const media = response.content?.[mediaType];
    if (!media) return [`${path} ${status} does not document ${mediaType}`];
    if (!media.schema?.$ref) return [];
    const validate = this.validator(media.schema.$ref);
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
  }
}
