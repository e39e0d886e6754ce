/**
 * Chart (seed 002 §5): bar or line over 1–200 points, positive and negative values. The SVG is drawn here from
 * numbers only; a document cannot supply paths, scripts or styles. The points are also listed in a visually
 * hidden table, so the data is readable without the picture.
 */
import { scalarText } from './format.js';

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

function pointTitle(point: ChartPoint): string {
  return `${point.label}: ${point.value === null ? 'unavailable' : scalarText(point.value)}`;
}

export function ChartView({
  kind,
  label,
  points,
}: {
  readonly kind: 'bar' | 'line';
  readonly label: string | undefined;
  readonly points: readonly ChartPoint[];
}) {
  const values = points.map((point) => point.value ?? 0);
  const max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  const y = (value: number) => PADDING + ((max - value) / span) * (HEIGHT - 2 * PADDING);
  const slot = (WIDTH - 2 * PADDING) / points.length;
  const x = (index: number) => PADDING + slot * index + slot / 2;
  const zero = y(0);
  const name = label ?? 'Chart';
  return (
    <figure className="lu-chart">
      {label !== undefined && <figcaption className="lu-chart-label">{label}</figcaption>}
      <svg
        className={`lu-chart-svg lu-chart-${kind}`}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={name}
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
      <table className="lu-visually-hidden">
        <caption>{name}</caption>
        <tbody>
          {points.map((point) => (
            <tr key={point.id}>
              <th scope="row">{point.label}</th>
              <td>{point.value === null ? 'unavailable' : scalarText(point.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
