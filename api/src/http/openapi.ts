import { z } from 'zod';
import { errorBodySchema, type Endpoint } from '@onair/protocol';

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

function parameters(schema: z.ZodType | undefined, location: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, prop]) => ({
    name,
    in: location,
    required: location === 'path' || (json.required ?? []).includes(name),
    schema: prop,
  }));
}

/** OpenAPI 3.1 (whose schemas are JSON Schema 2020-12, what zod emits) of every mounted endpoint. */
export function buildOpenApiDocument(endpoints: readonly Endpoint[], info: { title: string; version: string; serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorResponse = { description: 'Error', content: { 'application/json': { schema: toSchema(errorBodySchema, 'output') } } };
  for (const e of endpoints) {
    const path = e.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const success = String(e.successStatus ?? 200);
    const responses: Record<string, unknown> = {
      [success]: { description: 'Success', content: { 'application/json': { schema: toSchema(e.response, 'output') } } },
      default: errorResponse,
    };
    for (const status of e.alsoRespondsWith ?? []) responses[String(status)] = responses[success];
    paths[path] ??= {};
    paths[path][e.method] = {
      operationId: e.id,
      summary: e.summary,
      tags: [e.tag],
      ...(e.access === 'public' ? { security: [] } : {}),
      parameters: [...parameters(e.params, 'path'), ...parameters(e.query, 'query')],
      ...(e.body ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(e.body, 'input') } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version },
    servers: [{ url: info.serverUrl }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        session: { type: 'apiKey', in: 'cookie', name: 'onair.session_token' },
      },
    },
    security: [{ bearer: [] }, { session: [] }],
    paths,
  };
}
