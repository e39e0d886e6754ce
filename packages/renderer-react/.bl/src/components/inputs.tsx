/**
 * Input components (seed 002 §4–§5): Input, NumberInput, Select, Slider, Checkbox. Each writes its bound field
 * through `updateState`, so every control shares the field's one domain (type, range, step grid, Select
 * options, size); a rejected value leaves the state as it was and shows why next to the control. Controls
 * update the local state only: no agent round trip, no action.
 */
import { UI_LIMITS, type UINodeOf } from '@lineup/shared';
import { type ChangeEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { useFieldValue, useRenderContext } from '../context.js';
import { errorText } from '../errors.js';

/** A control with its label and, when a value was refused, the reason (linked by aria-describedby). */
function Field({
  id,
  label,
  message,
  checkbox = false,
  children,
}: {
  readonly id: string;
  readonly label: string;
  readonly message: string | null;
  /** A checkbox has its label after the box. */
  readonly checkbox?: boolean;
  readonly children: ReactNode;
}) {
  const labelElement = (
    <label className="lu-label" htmlFor={id}>
      {label}
    </label>
  );
  return (
    <div className={checkbox ? 'lu-field lu-checkbox-field' : 'lu-field'}>
      {!checkbox && labelElement}
      {children}
      {checkbox && labelElement}
      {message !== null && (
        <span id={`${id}-error`} className="lu-field-error" role="alert">
          {message}
        </span>
      )}
    </div>
  );
}

/** The ARIA attributes of a control whose value may be refused. */
function invalidity(id: string, message: string | null) {
  return {
    'aria-invalid': message !== null,
    'aria-describedby': message === null ? undefined : `${id}-error`,
  };
}

/**
 * Writes the bound field; returns the message of the last rejected write (null once a write succeeds). The
 * message belongs to the state value it was rejected against: when something else changes the field (a
 * reset, another control, a result), it no longer applies and is hidden.
 */
function useFieldWriter(bind: string): [string | null, (value: unknown) => void] {
  const context = useRenderContext();
  const current = useFieldValue(bind);
  const [rejected, setRejected] = useState<{ message: string; against: unknown } | null>(null);
  const write = (value: unknown) => {
    const error = context.setField(bind, value);
    setRejected(error === null ? null : { message: errorText(error), against: current });
  };
  return [rejected !== null && Object.is(rejected.against, current) ? rejected.message : null, write];
}

export function InputView({ node }: { readonly node: UINodeOf<'Input'> }) {
  const { document } = useRenderContext();
  const id = useId();
  const { bind, label, placeholder } = node.props;
  const value = useFieldValue(bind);
  const [message, write] = useFieldWriter(bind);
  const declaration = document.state[bind];
  const maxLength =
    declaration?.type === 'string' ? (declaration.maxLength ?? UI_LIMITS.maxStringLength) : undefined;
  return (
    <Field id={id} label={label} message={message}>
      <input
        id={id}
        className="lu-input"
        type="text"
        value={String(value ?? '')}
        placeholder={placeholder}
        maxLength={maxLength}
        {...invalidity(id, message)}
        onChange={(event: ChangeEvent<HTMLInputElement>) => write(event.target.value)}
      />
    </Field>
  );
}

/** Parses what the user typed; `null` for text that is not a finite number. */
export function parseNumberDraft(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

export function NumberInputView({ node }: { readonly node: UINodeOf<'NumberInput'> }) {
  const { document } = useRenderContext();
  const id = useId();
  const { bind, label } = node.props;
  const value = useFieldValue(bind) as number;
  const [message, write] = useFieldWriter(bind);
  // The draft is what the user is typing (the browser reports "" for an incomplete number such as "-"); it
  // survives re-renders and stream frames of the same generation (seed 004 §5 "保留 NumberInput 草稿") and
  // follows the state when something else changes it.
  const [draft, setDraft] = useState(() => String(value));
  const [draftMessage, setDraftMessage] = useState<string | null>(null);
  useEffect(() => {
    setDraft((current) => (parseNumberDraft(current) === value ? current : String(value)));
    setDraftMessage(null);
  }, [value]);
  const declaration = document.state[bind];
  const domain = declaration?.type === 'number' ? declaration : undefined;
  const shown = draftMessage ?? message;
  return (
    <Field id={id} label={label} message={shown}>
      <input
        id={id}
        className="lu-input lu-number"
        type="number"
        // The field's own domain (seed 002 §4: controls repeat it, never narrow it); no step means any value.
        min={domain?.min}
        max={domain?.max}
        step={domain?.step ?? 'any'}
        value={draft}
        {...invalidity(id, shown)}
        onChange={(event: ChangeEvent<HTMLInputElement>) => {
          const text = event.target.value;
          setDraft(text);
          const parsed = parseNumberDraft(text);
          if (parsed === null) {
            setDraftMessage('Enter a number.');
            return;
          }
          setDraftMessage(null);
          write(parsed);
        }}
      />
    </Field>
  );
}

export function SelectView({ node }: { readonly node: UINodeOf<'Select'> }) {
  const id = useId();
  const { bind, label, options } = node.props;
  const value = useFieldValue(bind);
  const [message, write] = useFieldWriter(bind);
  return (
    <Field id={id} label={label} message={message}>
      <select
        id={id}
        className="lu-select"
        value={String(value ?? '')}
        {...invalidity(id, message)}
        onChange={(event: ChangeEvent<HTMLSelectElement>) => write(event.target.value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function SliderView({ node }: { readonly node: UINodeOf<'Slider'> }) {
  const { document } = useRenderContext();
  const id = useId();
  const { bind, label } = node.props;
  const [message, write] = useFieldWriter(bind);
  const declaration = document.state[bind];
  // parseDocument proved the bound field declares finite min < max (seed 002 §4).
  const domain = declaration?.type === 'number' ? declaration : undefined;
  const value = useFieldValue(bind) as number;
  return (
    <Field id={id} label={label} message={message}>
      <div className="lu-slider-row">
        <input
          id={id}
          className="lu-slider"
          type="range"
          min={domain?.min}
          max={domain?.max}
          step={domain?.step ?? 'any'}
          value={value}
          {...invalidity(id, message)}
          onChange={(event: ChangeEvent<HTMLInputElement>) => write(Number(event.target.value))}
        />
        <output className="lu-slider-value" htmlFor={id}>
          {String(value)}
        </output>
      </div>
    </Field>
  );
}

export function CheckboxView({ node }: { readonly node: UINodeOf<'Checkbox'> }) {
  const id = useId();
  const { bind, label } = node.props;
  const checked = useFieldValue(bind) === true;
  const [message, write] = useFieldWriter(bind);
  return (
    <Field id={id} label={label} message={message} checkbox>
      <input
        id={id}
        className="lu-checkbox"
        type="checkbox"
        checked={checked}
        {...invalidity(id, message)}
        onChange={(event: ChangeEvent<HTMLInputElement>) => write(event.target.checked)}
      />
    </Field>
  );
}
