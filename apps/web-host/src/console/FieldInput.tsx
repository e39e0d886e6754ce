/** One argument of the tool caller's form: its input by kind, and a hint that says what it must be. */
import type { ConsoleText } from '../i18n/console.ts';
import type { FieldModel } from './schema-form.ts';

/** The constraints of a field, in words: what the hint under it says. */
function constraintsOf(field: FieldModel, text: ConsoleText): string[] {
  const parts: string[] = [text.kinds[field.kind]];
  if (field.kind === 'string') {
    if (field.minLength !== undefined || field.maxLength !== undefined)
      parts.push(text.length(field.minLength, field.maxLength));
    if (field.pattern !== undefined) parts.push(text.pattern(field.pattern));
  } else if (field.kind === 'integer' || field.kind === 'number') {
    if (field.minimum !== undefined && field.maximum !== undefined)
      parts.push(`${field.minimum}–${field.maximum}`);
    else if (field.minimum !== undefined) parts.push(`≥ ${field.minimum}`);
    else if (field.maximum !== undefined) parts.push(`≤ ${field.maximum}`);
    if (field.exclusiveMinimum !== undefined) parts.push(`> ${field.exclusiveMinimum}`);
    if (field.exclusiveMaximum !== undefined) parts.push(`< ${field.exclusiveMaximum}`);
    if (field.multipleOf !== undefined) parts.push(text.multipleOf(field.multipleOf));
  } else if (field.kind === 'json') {
    parts.push(text.fallback[field.reason]);
  }
  return parts;
}

export function FieldInput({
  id,
  field,
  value,
  invalid,
  onChange,
  text,
}: {
  readonly id: string;
  readonly field: FieldModel;
  readonly value: string;
  readonly invalid: boolean;
  readonly onChange: (value: string) => void;
  readonly text: ConsoleText;
}) {
  const hintId = `${id}-hint`;
  const common = { id, 'aria-describedby': hintId, 'aria-invalid': invalid, 'aria-required': field.required };
  const options =
    field.kind === 'boolean'
      ? ['true', 'false']
      : field.kind === 'string' || field.kind === 'integer' || field.kind === 'number'
        ? field.options?.map(String)
        : undefined;
  return (
    <div className="host__console-field">
      <label htmlFor={id}>
        {field.title ?? field.name}
        {field.title !== undefined && (
          <>
            {' '}
            <code>{field.name}</code>
          </>
        )}
        {field.required && <span className="host__console-required"> ({text.required})</span>}
      </label>
      {options !== undefined ? (
        <select {...common} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{field.required ? text.choose : text.notSet}</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : field.kind === 'json' ? (
        <textarea
          {...common}
          className="host__console-code"
          rows={3}
          spellCheck={false}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <input
          {...common}
          autoComplete="off"
          inputMode={field.kind === 'integer' ? 'numeric' : field.kind === 'number' ? 'decimal' : 'text'}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      <p id={hintId} className="host__console-hint">
        {field.description !== undefined && <span>{field.description} </span>}
        <span className="host__console-constraints">{constraintsOf(field, text).join(' · ')}</span>
      </p>
    </div>
  );
}
