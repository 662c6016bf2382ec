/** The add* operations: check the definition, compile schemas once, store, and return a handle. */

import { LocalError, type LocalErrorCode } from './errors.js';
import type {
  PromptDefinition,
  PromptHandler,
  Registration,
  ResourceReader,
  ResourceTemplateDefinition,
  TemplateReader,
  ToolHandler,
} from './handler-types.js';
import type { Kind, RegistryHost } from './host.js';
import type { Entry, PromptEntry, Registry, ToolEntry } from './registry.js';
import { wireOf } from './registry.js';
import type { SchemaCandidate } from './schema-types.js';
import { compileOptionalSchema } from './tool-schema.js';
import type { JsonSchema, PromptArgument, ResourceDefinition, ToolDefinition } from './types.js';
import { UriTemplate } from './uri-template.js';
import { compileVisibility } from './visibility/rule.js';

/** Definition fields that stay on the server: who may see the item. */
const LOCAL_ONLY = ['scopes', 'visible'] as const;

export type { Kind } from './host.js';

const DEFAULT_INPUT_SCHEMA = Object.freeze({ type: 'object' });
const TASK_SUPPORT: readonly string[] = ['forbidden', 'optional', 'required'];

function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new LocalError('INVALID_ARGUMENT', `${what} must be a non-empty string`);
  }
  return value;
}

/** Refuses a handler, reader or callback that is not a function; `what` names it. */
export function requireFunction(value: unknown, what: string): void {
  if (typeof value !== 'function') throw new LocalError('INVALID_ARGUMENT', `${what} must be a function`);
}

/** Store an entry built from `definition`; the handle rebuilds it on update and removes it on remove. */
function register<D extends object, H, E extends Entry>(
  server: RegistryHost,
  registry: Registry<E>,
  kind: Kind,
  key: string,
  duplicate: LocalErrorCode,
  build: (definition: D, handler: H) => E,
  definition: D,
  handler: H,
): Registration<D, H> {
  if (registry.has(key))
    throw new LocalError(duplicate, `${kind.slice(0, -1)} "${key}" is already registered`);
  let current = { definition, handler };
  let entry = build(definition, handler);
  registry.set(key, entry);
  server.changed(kind);
  return {
    remove(): void {
      if (registry.delete(key, entry)) server.changed(kind);
    },
    update(changes: Partial<D>, nextHandler?: H): void {
      const keyField = (['name', 'uri', 'uriTemplate'] as const).find(
        (field) => (current.definition as Record<string, unknown>)[field] === key && field in changes,
      );
      if (keyField !== undefined && (changes as Record<string, unknown>)[keyField] !== key) {
        throw new LocalError(
          'INVALID_ARGUMENT',
          `update() cannot change "${key}"; remove it and add another`,
        );
      }
      const next = {
        definition: { ...current.definition, ...changes },
        handler: nextHandler ?? current.handler,
      };
      const rebuilt = build(next.definition, next.handler);
      if (registry.get(key) !== entry) throw new LocalError('INVALID_ARGUMENT', `"${key}" was removed`);
      current = next;
      entry = rebuilt;
      registry.set(key, entry);
      server.changed(kind);
    },
  };
}

export function addToolTo<I extends SchemaCandidate | undefined, O extends SchemaCandidate | undefined>(
  server: RegistryHost,
  definition: ToolDefinition<I, O>,
  handler: ToolHandler<I, O>,
): Registration<ToolDefinition<I, O>, ToolHandler<I, O>> {
  const name = requireString(definition?.name, 'tool name');
  const build = (d: ToolDefinition<I, O>, h: ToolHandler<I, O>): ToolEntry => {
    const entry = buildTool(d, h);
    if (entry.taskSupport !== 'forbidden') server.useTasks();
    return entry;
  };
  return register(server, server.tools, 'tools', name, 'DUPLICATE_TOOL', build, definition, handler);
}

function buildTool<I extends SchemaCandidate | undefined, O extends SchemaCandidate | undefined>(
  definition: ToolDefinition<I, O>,
  handler: ToolHandler<I, O>,
): ToolEntry {
  requireFunction(handler, `the handler of tool "${definition.name}"`);
  if (definition.name !== undefined && typeof definition.name !== 'string') {
    throw new LocalError('INVALID_ARGUMENT', 'tool name must be a string');
  }
  const visible = compileVisibility(definition, `tool "${definition.name}"`);
  const taskSupport = definition.execution?.taskSupport ?? 'forbidden';
  if (!TASK_SUPPORT.includes(taskSupport)) {
    throw new LocalError(
      'INVALID_ARGUMENT',
      `the execution.taskSupport of tool "${definition.name}" must be "forbidden", "optional" or "required", got ${JSON.stringify(taskSupport)}`,
    );
  }
  const input = compileOptionalSchema(
    definition.inputSchema,
    `inputSchema of tool "${definition.name}"`,
    'input',
  );
  const output = compileOptionalSchema(
    definition.outputSchema,
    `outputSchema of tool "${definition.name}"`,
    'output',
  );
  const wire = wireOf(
    {
      ...definition,
      inputSchema: input?.wire ?? DEFAULT_INPUT_SCHEMA,
      outputSchema: output?.wire,
    },
    LOCAL_ONLY,
  );
  return {
    wire,
    visible,
    handler: handler as unknown as ToolEntry['handler'],
    validateInput: input?.check,
    validateOutput: output?.check,
    taskSupport,
  };
}

export function addResourceTo(server: RegistryHost, definition: ResourceDefinition, read: ResourceReader) {
  const uri = requireString(definition?.uri, 'resource uri');
  return register(
    server,
    server.resources,
    'resources',
    uri,
    'DUPLICATE_RESOURCE',
    (d: ResourceDefinition, r: ResourceReader) => {
      requireString(d.name, `the name of resource "${d.uri}"`);
      requireFunction(r, `the reader of resource "${d.uri}"`);
      const visible = compileVisibility(d, `resource "${d.uri}"`);
      return { wire: wireOf(d, LOCAL_ONLY), visible, read: r };
    },
    definition,
    read,
  );
}

export function addTemplateTo(
  server: RegistryHost,
  definition: ResourceTemplateDefinition,
  read: TemplateReader,
) {
  const key = requireString(definition?.uriTemplate, 'resource template uriTemplate');
  return register(
    server,
    server.templates,
    'resources',
    key,
    'DUPLICATE_RESOURCE_TEMPLATE',
    (d: ResourceTemplateDefinition, r: TemplateReader) => {
      requireString(d.name, `the name of resource template "${d.uriTemplate}"`);
      requireFunction(r, `the reader of resource template "${d.uriTemplate}"`);
      let template: UriTemplate;
      try {
        template = new UriTemplate(d.uriTemplate);
      } catch (error) {
        throw new LocalError('INVALID_ARGUMENT', (error as Error).message);
      }
      if (d.list !== undefined) requireFunction(d.list, `the list of resource template "${d.uriTemplate}"`);
      return {
        wire: wireOf(d, ['complete', 'list', ...LOCAL_ONLY]),
        visible: compileVisibility(d, `resource template "${d.uriTemplate}"`),
        template,
        read: r,
        list: d.list,
        complete: d.complete,
      };
    },
    definition,
    read,
  );
}

export function addPromptTo<A extends SchemaCandidate | undefined>(
  server: RegistryHost,
  definition: PromptDefinition<A>,
  handler: PromptHandler<A>,
): Registration<PromptDefinition<A>, PromptHandler<A>> {
  const name = requireString(definition?.name, 'prompt name');
  return register(
    server,
    server.prompts,
    'prompts',
    name,
    'DUPLICATE_PROMPT',
    buildPrompt,
    definition,
    handler,
  );
}

function buildPrompt<A extends SchemaCandidate | undefined>(
  d: PromptDefinition<A>,
  h: PromptHandler<A>,
): PromptEntry {
  requireFunction(h, `the handler of prompt "${d.name}"`);
  if (d.argsSchema !== undefined && d.arguments !== undefined) {
    throw new LocalError(
      'INVALID_ARGUMENT',
      `prompt "${d.name}" has both argsSchema and arguments: give argsSchema alone (the list is made from it)`,
    );
  }
  if (d.arguments !== undefined && !Array.isArray(d.arguments)) {
    throw new LocalError('INVALID_ARGUMENT', `the arguments of prompt "${d.name}" must be an array`);
  }
  const schema = compileOptionalSchema(d.argsSchema, `argsSchema of prompt "${d.name}"`, 'input');
  const listed = schema === undefined ? d.arguments : promptArguments(schema.wire, d.name);
  const required = (listed ?? []).filter((a) => a.required === true).map((a) => a.name);
  return {
    wire: wireOf({ ...d, arguments: listed }, ['complete', 'argsSchema', ...LOCAL_ONLY]),
    visible: compileVisibility(d, `prompt "${d.name}"`),
    required,
    validate: schema?.check,
    handler: h as unknown as PromptEntry['handler'],
    complete: d.complete as PromptEntry['complete'],
  };
}

/** The `arguments` list of prompts/list, made from an object schema's properties. */
function promptArguments(schema: JsonSchema, prompt: string): PromptArgument[] {
  const properties = schema.properties;
  if (schema.type !== 'object' || typeof properties !== 'object' || properties === null) {
    throw new LocalError(
      'INVALID_SCHEMA',
      `argsSchema of prompt "${prompt}" must describe an object with properties (one per argument)`,
    );
  }
  const required = Array.isArray(schema.required) ? schema.required : [];
  return Object.entries(properties as Record<string, Record<string, unknown>>).map(([name, property]) => {
    const argument: PromptArgument = { name, required: required.includes(name) };
    if (typeof property?.title === 'string') argument.title = property.title;
    if (typeof property?.description === 'string') argument.description = property.description;
    return argument;
  });
}
