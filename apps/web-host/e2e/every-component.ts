/** A document for the accessibility suite: all 21 components in one interface. */
/** Every component, every Badge tone, both Chart kinds, every Heading level and Markdown headings. */
export const EVERY_COMPONENT = {
  version: '1.0',
  id: 'every-component',
  mode: 'interactive_ui',
  title: 'Every component',
  state: {
    name: { type: 'string', initial: 'Ada', maxLength: 40 },
    count: { type: 'number', initial: 3, min: 0, max: 10, step: 1 },
    plan: { type: 'string', initial: 'basic', maxLength: 16 },
    agree: { type: 'boolean', initial: true },
  },
  derived: {},
  root: {
    id: 'root',
    type: 'Column',
    props: {},
    children: [
      { id: 'h1', type: 'Heading', props: { text: 'Overview', level: 1 } },
      { id: 'text', type: 'Text', props: { text: 'Plain text.' } },
      {
        id: 'md',
        type: 'Markdown',
        props: { text: '# Notes\n\nSome **bold** text.\n\n### Detail\n\n- one\n- two' },
      },
      {
        id: 'badges',
        type: 'Row',
        props: { gap: 'sm' },
        children: ['neutral', 'success', 'warning', 'danger'].map((tone) => ({
          id: `badge-${tone}`,
          type: 'Badge',
          props: { text: tone, tone },
        })),
      },
      { id: 'h3', type: 'Heading', props: { text: 'Details', level: 3 } },
      {
        id: 'grid',
        type: 'Grid',
        props: { columns: 2 },
        children: [
          {
            id: 'card-a',
            type: 'Card',
            props: { title: 'Inputs' },
            children: [
              { id: 'input', type: 'Input', props: { label: 'Name', bind: 'name' } },
              { id: 'number', type: 'NumberInput', props: { label: 'Count', bind: 'count' } },
              { id: 'slider', type: 'Slider', props: { label: 'Count slider', bind: 'count' } },
              {
                id: 'select',
                type: 'Select',
                props: {
                  label: 'Plan',
                  bind: 'plan',
                  options: [
                    { label: 'Basic', value: 'basic' },
                    { label: 'Pro', value: 'pro' },
                  ],
                },
              },
              { id: 'check', type: 'Checkbox', props: { label: 'I agree', bind: 'agree' } },
            ],
          },
          {
            id: 'card-b',
            type: 'Card',
            props: { title: 'Outputs' },
            children: [
              {
                id: 'result',
                type: 'Result',
                props: { label: 'Count', value: { expr: { state: 'count' } } },
              },
              {
                id: 'progress',
                type: 'Progress',
                props: { label: 'Done', value: { expr: { state: 'count' } }, max: 10 },
              },
              { id: 'loading', type: 'Loading', props: { label: 'Loading more' } },
              { id: 'error', type: 'Error', props: { message: 'Something went wrong.' } },
            ],
          },
        ],
      },
      {
        id: 'table',
        type: 'Table',
        props: {
          columns: [
            { key: 'name', label: 'Name' },
            { key: 'value', label: 'Value' },
          ],
          rows: [
            { name: 'a', value: 1.5 },
            { name: 'b', value: 2 },
          ],
        },
      },
      {
        id: 'bar',
        type: 'Chart',
        props: {
          kind: 'bar',
          label: 'Bars',
          data: [
            { id: 'p1', label: 'One', value: 1.23456 },
            { id: 'p2', label: 'Two', value: -2 },
          ],
        },
      },
      {
        id: 'line',
        type: 'Chart',
        props: {
          kind: 'line',
          label: 'Line',
          data: [
            { id: 'q1', label: 'One', value: 3 },
            { id: 'q2', label: 'Two', value: 1 },
          ],
        },
      },
      {
        id: 'form',
        type: 'Form',
        props: { submitLabel: 'Reset all', action: { type: 'reset' } },
        children: [{ id: 'form-text', type: 'Text', props: { text: 'A form.' } }],
      },
      {
        id: 'button',
        type: 'Button',
        props: { label: 'Set three', action: { type: 'set', key: 'count', value: 3 } },
      },
    ],
  },
};
