/**
 * Display components (seed 002 §5): Text, Heading, Markdown, Badge, Table, Progress, Chart, Loading, Error,
 * Result. Every agent value is rendered as text; an expression that cannot be computed shows a local notice
 * in place of its value and leaves the rest of the UI working (seed 004 §1 "局部错误隔离").
 */
import { UI_DEFAULT_PROGRESS_MAX, type UINodeOf, type Value } from '@lineup/shared';
import { type ReactNode, useId } from 'react';
import { type ChartPoint, ChartView } from '../chart.js';
import {
  type ResolvedValue,
  resolveNodeValue,
  useRenderContext,
  useResolvedValue,
  useValues,
} from '../context.js';
import { clampProgress, formatResult, scalarText } from '../format.js';
import { SafeMarkdown } from '../markdown.js';

/** Shown where a value could not be computed; the message is the shared error's, bounded and input-free. */
export function ValueUnavailable({ resolved }: { readonly resolved: ResolvedValue & { ok: false } }) {
  return (
    <span className="lu-value-error" title={resolved.error.message} lang="en">
      Value unavailable
    </span>
  );
}

function useValueText(value: Value): ReactNode {
  const resolved = useResolvedValue(value);
  return resolved.ok ? scalarText(resolved.value) : <ValueUnavailable resolved={resolved} />;
}

export function TextView({ node }: { readonly node: UINodeOf<'Text'> }) {
  return <p className="lu-text">{useValueText(node.props.text)}</p>;
}

/**
 * Heading levels 1–3 sit below the document title, in order and without skipped levels (outline.ts); the
 * look follows the DSL level, the HTML level the outline.
 */
export function HeadingView({ node }: { readonly node: UINodeOf<'Heading'> }) {
  const { outline } = useRenderContext();
  const text = useValueText(node.props.text);
  const level = node.props.level ?? 2;
  const Tag = `h${outline.headings.get(node.id) ?? outline.titleLevel + 1}` as 'h3';
  return <Tag className={`lu-heading lu-heading-${level}`}>{text}</Tag>;
}

export function MarkdownView({ node }: { readonly node: UINodeOf<'Markdown'> }) {
  const { outline } = useRenderContext();
  return (
    <SafeMarkdown
      text={node.props.text}
      baseLevel={outline.markdownBase.get(node.id) ?? outline.titleLevel}
    />
  );
}

/** The tone is said (visually hidden) and shown as a mark, not by colour alone. */
const TONE_MARKS = { success: '✓', warning: '!', danger: '✕' } as const;

export function BadgeView({ node }: { readonly node: UINodeOf<'Badge'> }) {
  const { texts } = useRenderContext();
  const tone = node.props.tone ?? 'neutral';
  const text = useValueText(node.props.text);
  return (
    <span className={`lu-badge lu-badge-${tone}`}>
      {tone !== 'neutral' && (
        <>
          <span className="lu-badge-icon" aria-hidden="true">
            {TONE_MARKS[tone]}
          </span>
          <span className="lu-visually-hidden" lang={texts.lang}>
            {`${texts.tones[tone]}: `}
          </span>
        </>
      )}
      {text}
    </span>
  );
}

export function TableView({ node }: { readonly node: UINodeOf<'Table'> }) {
  const { columns, rows } = node.props;
  return (
    <div className="lu-table-wrap">
      <table className="lu-table">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            // Rows have no ids; a row's position is its identity within one snapshot.
            // biome-ignore lint/suspicious/noArrayIndexKey: static rows, see above.
            <tr key={index}>
              {columns.map((column) => (
                <td
                  key={column.key}
                  className={typeof row[column.key] === 'number' ? 'lu-number' : undefined}
                >
                  {scalarText(row[column.key] ?? null)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ProgressView({ node }: { readonly node: UINodeOf<'Progress'> }) {
  const resolved = useResolvedValue(node.props.value);
  const max = node.props.max ?? UI_DEFAULT_PROGRESS_MAX;
  const label = node.props.label;
  if (!resolved.ok || typeof resolved.value !== 'number')
    return (
      <div className="lu-progress">
        {label !== undefined && <span className="lu-progress-label">{label}</span>}
        {resolved.ok ? (
          <span className="lu-value-error" lang="en">
            Value unavailable
          </span>
        ) : (
          <ValueUnavailable resolved={resolved} />
        )}
      </div>
    );
  const shown = clampProgress(resolved.value, max);
  return (
    <div className="lu-progress">
      {label !== undefined && <span className="lu-progress-label">{label}</span>}
      <div
        className="lu-progress-track"
        role="progressbar"
        aria-label={label ?? 'Progress'}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={shown}
      >
        <div className="lu-progress-bar" style={{ width: `${(shown / max) * 100}%` }} />
      </div>
    </div>
  );
}

function sameNumbers(a: readonly (number | null)[], b: readonly (number | null)[]): boolean {
  return a.length === b.length && a.every((value, index) => Object.is(value, b[index]));
}

export function ChartNodeView({ node }: { readonly node: UINodeOf<'Chart'> }) {
  const context = useRenderContext();
  const values = useValues(
    (snapshot) =>
      node.props.data.map((point) => {
        const resolved = resolveNodeValue(snapshot, point.value);
        return resolved.ok && typeof resolved.value === 'number' ? resolved.value : null;
      }),
    sameNumbers,
  );
  const points: ChartPoint[] = node.props.data.map((point, index) => ({
    id: point.id,
    label: point.label,
    value: values[index] ?? null,
  }));
  return (
    <ChartView
      kind={node.props.kind}
      label={node.props.label}
      points={points}
      locale={context.locale}
      fallbackName={context.texts.chart}
    />
  );
}

export function LoadingView({ node }: { readonly node: UINodeOf<'Loading'> }) {
  // Shows progress only: it starts no work of its own (seed 002 §5).
  return (
    <div className="lu-loading" role="status">
      <span className="lu-spinner" aria-hidden="true" />
      <span>{node.props.label ?? 'Loading…'}</span>
    </div>
  );
}

export function ErrorView({ node }: { readonly node: UINodeOf<'Error'> }) {
  return (
    <div className="lu-error" role="alert">
      {useValueText(node.props.message)}
    </div>
  );
}

export function ResultView({ node }: { readonly node: UINodeOf<'Result'> }) {
  const { locale } = useRenderContext();
  const labelId = useId();
  const resolved = useResolvedValue(node.props.value);
  const { format, label } = node.props;
  let text: ReactNode;
  if (!resolved.ok) text = <ValueUnavailable resolved={resolved} />;
  else if (format === undefined) text = scalarText(resolved.value);
  else if (typeof resolved.value === 'number') text = formatResult(resolved.value, format, locale);
  else
    text = (
      <span className="lu-value-error" lang="en">
        Value unavailable
      </span>
    );
  return (
    <div className="lu-result">
      {label !== undefined && (
        <span className="lu-result-label" id={labelId}>
          {label}
        </span>
      )}
      <output className="lu-result-value" aria-labelledby={label !== undefined ? labelId : undefined}>
        {text}
      </output>
    </div>
  );
}
