import { describe, expect, it } from 'vitest';
import {
  isUIComponentType,
  UI_COMPONENT_TABLE,
  UI_COMPONENT_TYPES,
  UI_COMPONENTS,
  UI_INPUT_COMPONENTS,
  UI_LAYOUT_COMPONENTS,
} from './components.js';
import { documentJsonSchema } from './json-schema.js';

/** The closed property lists of seed 002 §5, written out once here to pin what the table derives. */
const SEED_PROPS = {
  Text: [['text'], []],
  Heading: [['text'], ['level']],
  Markdown: [['text'], []],
  Row: [[], ['gap']],
  Column: [[], ['gap']],
  Grid: [[], ['gap', 'columns']],
  Card: [[], ['title', 'gap']],
  Badge: [['text'], ['tone']],
  Table: [['columns', 'rows'], []],
  Progress: [['value'], ['max', 'label']],
  Chart: [['kind', 'data'], ['label']],
  Input: [['label', 'bind'], ['placeholder']],
  NumberInput: [
    ['label', 'bind'],
    ['min', 'max', 'step'],
  ],
  Select: [['label', 'bind', 'options'], []],
  Button: [['label', 'action'], ['variant']],
  Slider: [
    ['label', 'bind'],
    ['min', 'max', 'step'],
  ],
  Checkbox: [['label', 'bind'], []],
  Form: [['submitLabel', 'action'], ['gap']],
  Loading: [[], ['label']],
  Error: [['message'], []],
  Result: [['value'], ['label', 'format']],
} as const;

type JSONSchemaNode = {
  readonly anyOf?: readonly JSONSchemaNode[];
  readonly oneOf?: readonly JSONSchemaNode[];
  readonly properties?: Readonly<Record<string, JSONSchemaNode>>;
  readonly required?: readonly string[];
  readonly const?: unknown;
};

describe('the component table', () => {
  it('derives the seed’s 21 components with their closed property lists, in order', () => {
    expect(UI_COMPONENT_TYPES).toEqual(Object.keys(SEED_PROPS));
    for (const type of UI_COMPONENT_TYPES) {
      const [required, optional] = SEED_PROPS[type];
      expect(UI_COMPONENTS[type], type).toEqual({ required, optional });
    }
    expect(Object.isFrozen(UI_COMPONENTS)).toBe(true);
  });

  it('derives the layouts (children) and the input components (not in structured_ui)', () => {
    expect(UI_LAYOUT_COMPONENTS).toEqual(['Row', 'Column', 'Grid', 'Card', 'Form']);
    expect(UI_INPUT_COMPONENTS).toEqual([
      'Input',
      'NumberInput',
      'Select',
      'Button',
      'Slider',
      'Checkbox',
      'Form',
    ]);
  });

  it('gives every component a prompt note of one line', () => {
    for (const type of UI_COMPONENT_TYPES) {
      const { note } = UI_COMPONENT_TABLE[type];
      expect(note.length, type).toBeGreaterThan(8);
      expect(note, type).not.toMatch(/\n/);
    }
  });

  it('agrees with the JSON Schema built from it: the same props, the same required names', () => {
    const defs = documentJsonSchema.$defs as Record<string, JSONSchemaNode>;
    const node = defs.NodeV1_1 as JSONSchemaNode;
    const variants = node.oneOf ?? node.anyOf ?? [];
    expect(variants).toHaveLength(UI_COMPONENT_TYPES.length);
    for (const variant of variants) {
      const type = variant.properties?.type?.const as keyof typeof SEED_PROPS;
      const props = variant.properties?.props as JSONSchemaNode;
      const [required, optional] = SEED_PROPS[type];
      expect(Object.keys(props.properties ?? {}).sort(), type).toEqual([...required, ...optional].sort());
      expect([...(props.required ?? [])].sort(), type).toEqual([...required].sort());
      expect('children' in (variant.properties ?? {}), type).toBe(
        UI_LAYOUT_COMPONENTS.includes(type as never),
      );
    }
  });

  it.each(['toString', '__proto__', 'constructor', 'text', 'TEXT', '', 42, null])(
    '%s is not a component type',
    (value) => {
      expect(isUIComponentType(value)).toBe(false);
    },
  );
});
