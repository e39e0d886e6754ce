/**
 * Chart (seed 002 §5): bar or line over 1–200 points, positive and negative values. The SVG is drawn here from
 * numbers only; a document cannot supply paths, scripts or styles. The points are also listed in a visually
 * hidden table, so the data is readable without the picture: a screen reader meets the figure (named once, by
 * its caption) and the table, and skips the picture. Tooltips and the table show rounded, locale-formatted
 * numbers (chartNumberFormat).
 */
import { useId } from 'react';
import { numberFormat } from './format.js';

export interface ChartPoint {
  readonly id: string;
  readonly label: string;
  /** `null` when the point's expression could not be computed. */
  readonly value: number | null;
}

const WIDTH = 640;
const HEIGHT = 240;
const PADDING = 16;
/** Up to this many points get a visible label row; every point always has a tooltip and a table row. */
const LEGEND_POINTS = 24;

/**
 * How a chart's numbers are shown: two fraction digits at most, or three significant digits when every value
 * is below 1 in size (so 0.0123 stays readable), with the locale's separators.
 */
export function chartNumberFormat(values: readonly (number | null)[], locale?: string): Intl.NumberFormat {
  const largest = Math.max(0, ...values.map((value) => Math.abs(value ?? 0)));
  return largest > 0 && largest < 1
    ? numberFormat(locale, { maximumSignificantDigits: 3 }, 'chart|significant3')
    : numberFormat(locale, { maximumFractionDigits: 2 }, 'chart|fraction2');
}

export function ChartView({
  kind,
  label,
  points,
  locale,
  fallbackName,
}: {
  readonly kind: 'bar' | 'line';
  readonly label: string | undefined;
  readonly points: readonly ChartPoint[];
  readonly locale?: string | undefined;
  /** The figure's name when the chart has no label. */
  readonly fallbackName: string;
}) {
  const captionId = useId();
  const format = chartNumberFormat(
    points.map((point) => point.value),
    locale,
  );
  const valueText = (point: ChartPoint) =>
    point.value === null ? 'unavailable' : format.format(point.value);
  const pointTitle = (point: ChartPoint) => `${point.label}: ${valueText(point)}`;
  const values = points.map((point) => point.value ?? 0);
  const max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  const y = (value: number) => PADDING + ((max - value) / span) * (HEIGHT - 2 * PADDING);
  const slot = (WIDTH - 2 * PADDING) / points.length;
  const x = (index: number) => PADDING + slot * index + slot / 2;
  const zero = y(0);
  return (
    <figure
      className="lu-chart"
      {...(label !== undefined ? { 'aria-labelledby': captionId } : { 'aria-label': fallbackName })}
    >
      {label !== undefined && (
        <figcaption className="lu-chart-label" id={captionId}>
          {label}
        </figcaption>
      )}
      {/* The picture repeats the table below for the eye; tooltips (title) show each point on hover. */}
      <svg
        className={`lu-chart-svg lu-chart-${kind}`}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        aria-hidden="true"
        focusable="false"
        preserveAspectRatio="none"
      >
        <line className="lu-chart-axis" x1={PADDING} x2={WIDTH - PADDING} y1={zero} y2={zero} />
        {kind === 'bar'
          ? points.map((point, index) => {
              const value = point.value ?? 0;
              const top = Math.min(y(value), zero);
              return (
                <rect
                  key={point.id}
                  className={value < 0 ? 'lu-chart-bar lu-chart-negative' : 'lu-chart-bar'}
                  x={x(index) - (slot * 0.7) / 2}
                  width={slot * 0.7}
                  y={top}
                  height={Math.max(Math.abs(y(value) - zero), 1)}
                >
                  <title>{pointTitle(point)}</title>
                </rect>
              );
            })
          : [
              <polyline
                key="line"
                className="lu-chart-line"
                fill="none"
                points={points.map((point, index) => `${x(index)},${y(point.value ?? 0)}`).join(' ')}
              />,
              ...points.map((point, index) => (
                <circle key={point.id} className="lu-chart-dot" cx={x(index)} cy={y(point.value ?? 0)} r={3}>
                  <title>{pointTitle(point)}</title>
                </circle>
              )),
            ]}
      </svg>
      {points.length <= LEGEND_POINTS && (
        <div className="lu-chart-legend" aria-hidden="true">
          {points.map((point) => (
            <span key={point.id} className="lu-chart-legend-item">
              {point.label}
            </span>
          ))}
        </div>
      )}
      <div className="lu-visually-hidden">
        <table>
          <tbody>
            {points.map((point) => (
              <tr key={point.id}>
                <th scope="row">{point.label}</th>
                <td>{valueText(point)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
