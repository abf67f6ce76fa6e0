// A time-series line chart drawn by uPlot (canvas; small and fast at thousands of points). The x
// axis is the bucket's index, labelled with the bucket's own local date from the API, so the chart
// shows the query's time zone whatever the browser's is. The canvas is one picture to assistive
// technology (role img, with the summary the screen passes); the numbers themselves are in the
// table the screen offers beside it. The chart follows its container's width (phones too).
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export type ChartSeries = { label: string; values: ReadonlyArray<number | null>; color: string; dashed?: boolean };

type Props = {
  /** The x labels, one per bucket (axis) and their longer form (the readout under the cursor). */
  axisLabels: readonly string[];
  pointLabels: readonly string[];
  series: readonly ChartSeries[];
  /** The chart's text alternative. */
  summary: string;
  formatValue: (n: number) => string;
  height?: number;
};

const COUNT_INCRS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000, 20_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000];
const INDEX_INCRS = [1, 2, 3, 4, 6, 7, 12, 14, 24, 28, 48, 72, 168, 336, 744];

function cssVar(el: Element, name: string, fallback: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim() || fallback;
}

/** A canvas takes no var(): a series' 'var(--brand)' is read from the page's style. */
function resolved(el: Element, color: string): string {
  const v = /^var\((--[\w-]+)\)$/.exec(color);
  return v?.[1] ? cssVar(el, v[1], '#0f4c5c') : color;
}

export function TimeSeriesChart({ axisLabels, pointLabels, series, summary, formatValue, height = 260 }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  // The newest labels and formatter, read by uPlot's callbacks without rebuilding the chart.
  const labels = useRef(axisLabels);
  labels.current = axisLabels;
  const format = useRef(formatValue);
  format.current = formatValue;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const text = cssVar(el, '--muted', '#56606d');
    const grid = cssVar(el, '--border', '#dde1e6');
    const n = axisLabels.length;
    const xs = Array.from({ length: n }, (_, i) => i);
    const data: uPlot.AlignedData = [xs, ...series.map((s) => Array.from({ length: n }, (_, i) => s.values[i] ?? null))];
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { size: 7 } },
      scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
      axes: [
        {
          stroke: text,
          grid: { show: false },
          ticks: { stroke: grid },
          incrs: INDEX_INCRS,
          space: 56,
          values: (_u, splits) => splits.map((i) => (Number.isInteger(i) ? (labels.current[i] ?? '') : '')),
        },
        {
          stroke: text,
          grid: { stroke: grid, width: 1 },
          ticks: { show: false },
          incrs: COUNT_INCRS,
          size: 56,
          values: (_u, splits) => splits.map((v) => format.current(v)),
        },
      ],
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          stroke: resolved(el, s.color),
          width: 2,
          ...(s.dashed ? { dash: [6, 4] } : {}),
          points: { show: n <= 45, size: 5, fill: resolved(el, s.color) },
        })),
      ],
      hooks: { setCursor: [(u) => setCursor(u.cursor.idx ?? null)] },
    };
    const chart = new uPlot(opts, data, el);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(200, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [axisLabels, series, height]);

  const at = cursor === null ? null : cursor;
  return (
    <div className="analytics-chart">
      <div ref={box} role="img" aria-label={summary} className="analytics-chart-canvas" />
      {series.length > 1 && (
        <ul className="analytics-legend">
          {series.map((s) => (
            <li key={s.label}>
              <span className={`analytics-swatch${s.dashed ? ' dashed' : ''}`} style={{ borderTopColor: s.color }} aria-hidden="true" />
              {s.label}
            </li>
          ))}
        </ul>
      )}
      <p className="analytics-readout muted" aria-hidden="true">
        {at === null
          ? ' '
          : [pointLabels[at], ...series.map((s) => `${s.label}: ${s.values[at] === null || s.values[at] === undefined ? '–' : formatValue(s.values[at] as number)}`)].join(' · ')}
      </p>
    </div>
  );
}
