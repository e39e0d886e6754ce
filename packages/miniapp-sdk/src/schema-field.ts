/**
 * Where in a zod schema JSON Schema gives up: zod's `toJSONSchema` says what (`Date cannot be represented in JSON
 * Schema`) but not where. This walks the schema's parts, converting each on its own, down to the innermost part
 * that still fails, and names it with a path (`when`, `items[]`, `tags{}`). Used at build time only.
 */
import { jsonSchemaFromZod } from '@lineup/shared';
import type { z } from 'zod';

type Part = { readonly segment: string; readonly schema: z.ZodType };

/** How deep the walk goes (a recursive schema through `z.lazy` repeats its parts). */
const MAX_DEPTH = 32;

interface ZodDefinition {
  readonly type?: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly element?: z.ZodType;
  readonly items?: readonly z.ZodType[];
  readonly rest?: z.ZodType | null;
  readonly options?: readonly z.ZodType[];
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
  readonly keyType?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly out?: z.ZodType;
  readonly getter?: () => z.ZodType;
}

function definitionOf(schema: z.ZodType): ZodDefinition {
  return ((schema as unknown as { _zod?: { def?: ZodDefinition } })._zod?.def ?? {}) as ZodDefinition;
}

/** The parts of one schema, each with the path segment that leads to it ('' for a wrapper). */
function partsOf(schema: z.ZodType, io: 'input' | 'output'): Part[] {
  const def = definitionOf(schema);
  const parts: Part[] = [];
  const add = (segment: string, part: z.ZodType | null | undefined) => {
    if (part !== undefined && part !== null) parts.push({ segment, schema: part });
  };
  switch (def.type) {
    case 'object':
      for (const [key, part] of Object.entries(def.shape ?? {})) add(key, part);
      add('{}', def.rest as z.ZodType | undefined);
      break;
    case 'array':
      add('[]', def.element);
      break;
    case 'tuple':
      for (const [index, part] of (def.items ?? []).entries()) add(`[${index}]`, part);
      add('[]', def.rest);
      break;
    case 'record':
    case 'map':
      add('{}', def.keyType);
      add('{}', def.valueType);
      break;
    case 'set':
      add('[]', def.valueType);
      break;
    case 'union':
      for (const part of def.options ?? []) add('', part);
      break;
    case 'intersection':
      add('', def.left);
      add('', def.right);
      break;
    case 'pipe':
      // What a sender sends is the pipe's input; what a result carries, its output.
      add('', io === 'input' ? def.in : def.out);
      break;
    case 'lazy':
      add('', def.getter?.());
      break;
    default:
      add('', def.innerType);
  }
  return parts;
}

function fails(schema: z.ZodType, io: 'input' | 'output'): boolean {
  try {
    jsonSchemaFromZod(schema, { io });
    return false;
  } catch {
    return true;
  }
}

function join(path: string, segment: string): string {
  if (segment === '') return path;
  if (segment.startsWith('[') || segment === '{}') return `${path}${segment}`;
  return path === '' ? segment : `${path}.${segment}`;
}

/** The path of the innermost part of `schema` JSON Schema cannot express (`''`: the schema itself). */
export function unrepresentableField(schema: z.ZodType, io: 'input' | 'output'): { readonly path: string } {
  let current = schema;
  let path = '';
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const failing = partsOf(current, io).find((part) => fails(part.schema, io));
    if (failing === undefined) break;
    path = join(path, failing.segment);
    current = failing.schema;
  }
  return { path };
}
